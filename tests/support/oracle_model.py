"""Fake models for whole batches: they read each request like a model would and answer every step right.

The oracle knows the complete C# port (an index of it) and answers the member under translation with
its real text; every step's intended answer is then rendered in an answer style (tests/support/answer_styles.py),
so the R1-style model says exactly what the oracle says, wrapped as DeepSeek-R1 would wrap it, and
now and then as a whole class.

    responder = OracleModel(Index.open(...complete port...), style="r1")
    with FakeOpenAIServer(responder=responder) as server: ...
"""
from __future__ import annotations

import hashlib
import re

from tests.support import answer_styles

STEPS = {"decide whether to retrieve": "rag_decide", "keep or drop": "rag_filter",
         "gather repository context": "context", "translate the method": "generate",
         "reflect on a failed candidate": "reflect", "repair the translation": "repair"}


def _norm(text: str) -> str:
    return " ".join(text.split())


class OracleModel:
    def __init__(self, index, style: str = "oracle", whole_class_every: int = 3, retrieve: bool = False,
                 context_tools: tuple[str, ...] = ("get_target_class_info",)):
        self.index = index
        self.retrieve, self.context_tools = retrieve, context_tools
        self.style = answer_styles.STYLES[style]
        self.whole_class_every = whole_class_every if style == "r1" else 0
        self.calls: dict[str, int] = {}
        self._asked: dict[str, int] = {}        # request -> times asked (a re-ask gets the style's next reply)
        self._by_signature = {}
        for m in index.all_methods("target"):
            self._by_signature[(m.type_id.split(":", 1)[1], _norm(m.signature))] = m

    def __call__(self, body: dict) -> str | dict:
        key = hashlib.sha256(repr(body["messages"]).encode()).hexdigest()
        n = self._asked[key] = self._asked.get(key, -1) + 1
        prompt = body["messages"][-1]["content"]
        header = prompt.split("\n", 1)[0]
        step = next((s for k, s in STEPS.items() if k in header), None)
        self.calls[step or "?"] = self.calls.get(step or "?", 0) + 1
        if step == "rag_decide":
            value = {"retrieve": self.retrieve, "reason": "the oracle decides so"}
        elif step == "rag_filter":
            n = len(re.findall(r"^### Candidate \d+:", prompt, re.M))
            value = {"decisions": [{"candidate": i, "keep": True, "reason": "similar"} for i in range(1, n + 1)]}
        elif step == "context":
            done = len(re.findall(r"^\d+\. \w+\(", prompt.split("## Last Command", 1)[-1], re.M))
            value = ({"tool": self.context_tools[done], "arguments": {}} if done < len(self.context_tools)
                     else {"tool": "enough", "reason": "the class is known"})
        elif step == "reflect":
            value = ("The candidate is already the repository's own code.", [])
        elif step in ("generate", "repair"):
            member = self._member(prompt)
            value = self._truth(member)
            if self._wrap(member):
                return answer_styles.r1_think() + self._whole_class(member, value)
        else:
            return "I do not understand the request."
        replies = self.style(step, value)
        return replies[min(n, len(replies) - 1)]

    def _member(self, prompt: str):
        cls = re.search(r"Target C# class: `([^`]+)`", prompt).group(1)
        sig = re.search(r"signature \(keep it exactly\):\n```csharp\n(.*?)\n```", prompt, re.S).group(1)
        member = self._by_signature.get((cls, _norm(sig)))
        if member is None:
            raise KeyError(f"the oracle does not know {cls} {sig}")
        return member

    def _truth(self, member) -> str:
        data = (self.index.root("target") / member.path).read_bytes()
        text = data[member.start_byte:member.end_byte].decode("utf-8")
        lines = text.split("\n")
        indents = [len(l) - len(l.lstrip()) for l in lines[1:] if l.strip()]
        cut = min(indents, default=0)
        lead = min(cut, 4)
        return "\n".join([lines[0]] + [l[cut - lead:] if cut >= lead else l for l in lines[1:]]).strip()

    def _wrap(self, member) -> bool:
        if not self.whole_class_every:
            return False
        return int(hashlib.sha256(member.id.encode()).hexdigest(), 16) % self.whole_class_every == 0

    def _whole_class(self, member, code: str) -> str:
        t = self.index.type(member.type_id)
        fields = [f for f in self.index.fields(member.type_id)]
        field = f"        {' '.join([*fields[0].modifiers, fields[0].type, fields[0].name])};\n\n" if fields else ""
        body = "\n".join("        " + l if l else "" for l in code.split("\n"))
        return ("Here is the whole class with the member filled in:\n```cs\nusing System;\nusing System.Text;\n\n"
                f"namespace {t.container}\n{{\n    public {t.kind} {t.name}\n    {{\n{field}{body}\n    }}\n}}\n```")
