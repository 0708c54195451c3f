"""The capability policy on a candidate's compiled IL: what a translated member may reference (an
allowlist: rules.tsv's core entries, the port's own code and its framework references; README).

Our own checker (`cecil_checker.cs`, Mono.Cecil, compiled once per workspace like the test runner) reads
the candidate assembly after it compiled and before any test runs. It inspects the candidate member,
whatever the candidate added or changed against the baseline assembly, and the compiler-generated
code they reach (lambdas, closures, iterators), and names each reference to reflection or dynamic
invocation, interop and raw memory, the test framework, process and runtime control, raw console
handles or the file system. A candidate with any is `rejected`, with a reason the Refine agent can act
on, and never reaches a test run.

Allowances come only from the Java original: a Java method that itself does file I/O or reflection
lets its translation use the matching C# surface, and the verdict records `trust: reduced (...)`.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from repotrans.index.model import Method

SOURCE = Path(str(files("repotrans.execution.capability") / "cecil_checker.cs"))
SOURCES = (SOURCE, *(SOURCE.with_name(f"cecil_{p}.cs")                # one partial class
                     for p in ("allowlist", "framework", "typesafe", "reflect", "path")))
RULES = Path(str(files("repotrans.execution.capability") / "rules.tsv"))    # read by both checkers
CECIL = "/usr/lib/mono/gac/Mono.Cecil/0.11.0.0__0738eb9f132ed756/Mono.Cecil.dll"
CAPABILITIES = ("type_safety", "test_framework", "declaration", "test_content", "reflection_scope", "file_scope",
                "serialization", "resources", "codegen", "app_domain", "reflection", "unsafe", "interop", "process", "network", "console", "file_system",
                "xml_transform", "xml_schema", "xml_dom", "xml_xpath", "equality", "ordering", "formatting", "enumeration", "unlisted")
# what the Java original may grant; the rest (interop, unsafe, type safety, the test framework) never. GRANTS run
# with reduced trust; DECLARES are the overrides of what the tests read of a value (il_typesafe): the Java
# original's class defines the same (equals, hashCode, compareTo, toString, iterator), no trust is lost
GRANTS = ("reflection", "file_system", "process", "console", "network", "threads", "xml_transform", "xml_schema")
DECLARES = ("equality", "ordering", "formatting", "enumeration")
# C# API families allowed when the Java original's file uses the matching Java family (rules.tsv `family`, `grant`):
# the in-memory ones (DOM, XPath) lose no trust; XSLT and schemas are GRANTS (they run what the code builds, and a
# schema's includes are resolved). What reaches files or the network in them stays denied or under file_scope.
JAVA_FAMILIES = {
    "xml_dom": re.compile(r"\borg\.w3c\.dom\b|\bjavax\.xml\.(?:parsers|namespace|stream|transform)\b|\borg\.xml\.sax\b"),
    "xml_xpath": re.compile(r"\bjavax\.xml\.xpath\b"),
    # XSLT itself, not the Source/Result types every XML API takes (javax.xml.transform.Source is xml_dom's input)
    "xml_transform": re.compile(r"\bjavax\.xml\.transform\.(?:\*|Transformer\w*|Templates|URIResolver|sax\.SAXTransformerFactory)"
                                r"|\b(?:TransformerFactory|newTransformer|newTemplates)\b"),
    "xml_schema": re.compile(r"\bjavax\.xml\.validation\b"),
}
FAMILIES = tuple(JAVA_FAMILIES)
ALLOWABLE = GRANTS + DECLARES + ("xml_dom", "xml_xpath")
# the file-system allowance's narrowing (il_path): each literal the Java original names, an entry `path:<hex>` (its
# UTF-8 bytes), and `file_parent` when the Java original climbs to a path's parent
PATH = "path:"
PARENT = "file_parent"
HINTS = {
    "type_safety": ("code the runtime cannot prove type-safe (unverifiable IL, explicit layout or field offsets, "
                    "unmanaged or extern methods, attributes outside the short list): write plain managed code"),
    "reflection_scope": ("reflection beyond the class itself: reflect only on typeof(this class) and its own members, "
                         "never on a Type or member obtained from an object, a parameter or a field"),
    "file_scope": ("file access beyond the paths the Java original names: build each path from the member's "
                   "parameters and the Java method's own string literals, never from the test assembly's location, "
                   "the current, base or temporary directory or the environment"),
    "equality": "an Equals/GetHashCode/== the Java class does not define: keep the value's own equality",
    "ordering": "a CompareTo/Compare/< the Java class does not define: keep the value's own ordering",
    "formatting": "a ToString the Java class does not define: keep the value's own formatting",
    "enumeration": "a GetEnumerator the Java class does not define: return the collection itself",
    "reflection": "reflection / dynamic invocation: write the logic directly, calling members by name in code",
    "unsafe": "unsafe code / raw pointers: use arrays and indices instead",
    "interop": "native interop / raw memory: use managed types only",
    "test_framework": "the test framework: a translated member must not touch the tests or their results",
    "process": "process and runtime control: compute the result and return it",
    "console": "raw console handles: use Console.Write/WriteLine if the Java method prints",
    "file_system": "the file system, which the Java method does not use: compute the result in memory",
    "network": "network and URI clients (a file:// URI reads files too): compute the result in memory",
    "serialization": "a serialization formatter, which builds objects of any type from data: construct them directly",
    "resources": "a resource reader, which deserializes what it reads: compute the result directly",
    "codegen": "code compiled or generated at run time, which no check sees: write the logic directly",
    "app_domain": "application domains and assembly loading: compute the result directly",
    "unlisted": "not used by this port's own code and not on the allowlist: compute the result directly",
    "xml_transform": "XSLT, which the Java original does not use (javax.xml.transform): compute the result directly",
    "xml_schema": "schema validation, which the Java original does not use (javax.xml.validation): check the values directly",
    "xml_dom": "the XML DOM, which the Java original does not use (org.w3c.dom): compute the result directly",
    "xml_xpath": "XPath, which the Java original does not use (javax.xml.xpath): walk the nodes directly",
    "declaration": "a type outside its member's class and the port's namespaces: declare helpers in the class",
    "test_content": ("the assembly of a type the code does not name, which may be the tests' (a lambda's closure, "
                     "a test's subclass) with the tests' embedded resources: use typeof(AThisPortType).Assembly"),
}
JAVA_CAPABILITIES = {
    "reflection": re.compile(r"\bjava\.lang\.reflect\b|\bClass\.forName\s*\(|\.getDeclared(?:Method|Field|Constructor)s?\s*\("
                             r"|\.get(?:Method|Field|Constructor)s?\s*\(|(?<!Factory)\.newInstance\s*\(|\bMethod\s+\w+\s*=|\.invoke\s*\("),
    "file_system": re.compile(r"\b(?:File|FileInputStream|FileOutputStream|FileReader|FileWriter|RandomAccessFile"
                              r"|Files|Paths|FileChannel|FileLock|FilenameFilter|FileFilter)\b|\bjava\.nio\.file\b"),
    "process": re.compile(r"\bSystem\.exit\s*\(|\bRuntime\.getRuntime\s*\(|\bProcessBuilder\b|\bSystem\.getenv\s*\("),
    # printStackTrace() prints to System.err: the same console a Java original writing System.err.println(e) reaches
    "console": re.compile(r"\bSystem\.(?:out|err|in)\b|\.printStackTrace\s*\(\s*\)"),
    "network": re.compile(r"\bjava\.net\b|\b(?:Socket|ServerSocket|DatagramSocket|URLConnection|HttpURLConnection)\b"
                         r"|\.open(?:Stream|Connection)\s*\("),
    "threads": re.compile(r"\bnew\s+Thread\s*\(|\b(?:ExecutorService|Executors|ThreadPoolExecutor|ForkJoinPool)\b"),
}
ACCESSORS = {"property": ("get_{}", "set_{}"), "indexer": ("get_Item", "set_Item")}
# what the policy and the sandboxes leave open, named by doctor and the README
RESIDUAL_RISKS = (
    "a task allowed reflection (its Java original reflects) may reflect only on typeof(its own class) and the "
    "members found there (il_reflect, cecil_reflect.cs), but those include members inherited from a framework base "
    "class, invoked with whatever the code passes; such verdicts are marked trust: reduced",
    "a task allowed the file system may open only paths built from its parameters, the Java original's literals "
    "and the port's own fields and methods (il_path, cecil_path.cs); on those it reads and writes what the test "
    "uid may (a literal the Java original names, such as \".\", is that path whatever it holds)",
    "the local sandbox hides sources and cannot drop to other uids when repotrans does not run as root",
    "a task allowed XSLT or schemas (its Java original's file uses javax.xml.transform or javax.xml.validation) "
    "cannot turn on script blocks, document() or extension objects, nor hand on a resolver other than null; but "
    "a schema it builds may include others by location, and a document it validates may name schemas by "
    "xsi:schemaLocation (the schema set's own resolver reads them), and settings "
    "or resolvers a port or test object already holds (or a port method that enables them) are used as they are",
    "an object the tests pass in still shows their type names (Type.Name, ToString), not their assembly: "
    "Type.Assembly is allowed only on typeof(a type of the candidate's own assembly)",
)


@dataclass(frozen=True)
class Denial:
    capability: str
    api: str                        # "System.Activator", "System.IO.File", "System.Console.OpenStandardOutput"
    where: str                      # the IL method that references it

    def reason(self) -> str:
        return f"uses {self.api}: {HINTS.get(self.capability, self.capability)}"


@dataclass
class PolicyVerdict:
    denials: list[Denial] = field(default_factory=list)
    inspected: int = 0              # methods read
    seconds: float = 0.0
    cpu: float = 0.0                # the checker process's CPU seconds when it answered (start-up and JIT included)
    error: str = ""                 # the checker could not read the assembly (itself a rejection)

    @property
    def ok(self) -> bool:
        return not self.denials and not self.error

    def reason(self) -> str:
        if self.error:
            return f"the capability check could not read the candidate assembly: {self.error}"
        first = self.denials[0].reason()
        more = len({d.api for d in self.denials}) - 1
        return first + (f" (and {more} more: {', '.join(sorted({d.api for d in self.denials[1:]})[:3])})"
                        if more > 0 else "")

    def log(self) -> str:
        """The denials one per line: a rejected result's log."""
        return "\n".join(f"{d.capability}: {d.api} in {d.where}" for d in self.denials)


def merged_verdict(verdicts: list[PolicyVerdict]) -> PolicyVerdict:
    """One verdict for a candidate over each assembly compiling it: every denial once, the first error,
    the checker's own time and the methods it read summed."""
    merged = PolicyVerdict(inspected=sum(v.inspected for v in verdicts), seconds=sum(v.seconds for v in verdicts),
                           cpu=sum(v.cpu for v in verdicts), error=next((v.error for v in verdicts if v.error), ""))
    for v in verdicts:
        merged.denials += [d for d in v.denials if d not in merged.denials]
    return merged


ALIASES = {"int": "Int32", "long": "Int64", "short": "Int16", "byte": "Byte", "sbyte": "SByte", "uint": "UInt32",
           "ulong": "UInt64", "ushort": "UInt16", "float": "Single", "double": "Double", "decimal": "Decimal",
           "bool": "Boolean", "char": "Char", "string": "String", "object": "Object"}


@dataclass(frozen=True)
class MemberRef:
    """How the checker finds the candidate member in IL: declaring type as the index names it
    ("Ns.Outer.Inner"), IL method names (accessors for properties), parameter count (-1: any) and
    the parameter types' simple names ("Int32", "String[]", "ISet"), which pick one overload."""
    type_name: str
    names: tuple[str, ...]
    arity: int
    param_types: tuple[str, ...] = ()

    @classmethod
    def of(cls, method: Method) -> "MemberRef":
        type_name = re.sub(r"<[^<>]*>", "", method.type_id.split(":", 1)[-1])
        while "<" in type_name:
            type_name = re.sub(r"<[^<>]*>", "", type_name)
        if method.kind == "constructor":
            names = (".cctor",) if "static" in method.modifiers else (".ctor",)
        elif method.kind in ACCESSORS:
            names = tuple(n.format(method.name) for n in ACCESSORS[method.kind])
        else:
            names = (method.name.split("<", 1)[0].rsplit(".", 1)[-1],)
        arity = len(method.params) if method.kind in ("method", "constructor") else -1
        types = tuple(_simple_type(p.type) for p in method.params) if arity >= 0 else ()
        return cls(type_name.strip(), names, arity, types)


def _simple_type(text: str) -> str:
    """"ISet<string>" -> "ISet", "string[]" -> "String[]", "ref int" -> "Int32", "int?" -> "Nullable"."""
    text = re.sub(r"^(?:ref|out|in|params|this)\s+", "", text.strip())
    while "<" in text:
        text = re.sub(r"<[^<>]*>", "", text)
    arrays = text.count("[")
    base = text.split("[", 1)[0].strip()
    if base.endswith("?"):
        return "Nullable"
    base = base.rsplit(".", 1)[-1]
    return ALIASES.get(base, base) + "[]" * arrays


def java_capabilities(java: Method | str | None) -> frozenset[str]:
    """The allowable capabilities the Java original itself uses (file I/O, reflection, process control,
    the raw console): pass its signature and body, a parameter of type File counts."""
    java_code = java if isinstance(java, str) or java is None else f"{java.signature} {java.body or ''}"
    if not java_code:
        return frozenset()
    return frozenset(cap for cap, pattern in JAVA_CAPABILITIES.items() if pattern.search(java_code))


def policy_allowances(allow: frozenset[str]) -> frozenset[str]:
    """What of `allow` reaches the checkers: the allowable capabilities, and the paths of a file-system one."""
    return frozenset(a for a in allow if a in ALLOWABLE or (
        "file_system" in allow and (a == PARENT or a.startswith(PATH))))


def trust_note(allowed: frozenset[str]) -> str:
    """The verdict's `trust: reduced (...)` note for a candidate checked with allowances, else ""."""
    granted = sorted(set(allowed) & set(GRANTS))
    return f"trust: reduced ({', '.join(granted)} allowed: the Java original uses it)" if granted else ""


def checker_argv(exe: str) -> list[str]:
    """The checker's command: mono finds the AOT images aot_argvs made beside the exe (less JIT per run;
    without them, or when they do not match, it compiles as usual)."""
    return ["mono", f"--aot-path={Path(exe).parent}", exe]


def aot_argvs(exe: str) -> list[list[str]]:
    """Ahead-of-time compilation of the checker and Mono.Cecil into the checker's folder (once per
    workspace state, with the mono that runs the checker); a failure only costs JIT time later."""
    folder = Path(exe).parent
    return [["mono", "--aot", exe], ["mono", f"--aot=outfile={folder / Path(CECIL).name}.so", CECIL]]


def build_argv(exe: str, source: str) -> list[str]:
    """mcs command compiling the checker (run once per workspace state): `source` and, beside it, the
    rest of its partial class (SOURCES)."""
    rest = [str(Path(source).with_name(p.name)) for p in SOURCES[1:]]
    return ["mcs", "-target:exe", f"-out:{exe}", f"-r:{CECIL}", "-r:System.Core.dll", source, *rest]


def job_line(candidate_dll: str, baseline_dll: str | None, member: MemberRef | None,
             allowed: frozenset[str], refs_dll: str | None = None) -> str:
    """One checker job (see cecil_checker.cs): paths as the checker's process sees them. `refs_dll`: the
    port's build whose framework references the candidate may use (default: the baseline)."""
    type_name, names, arity = (member.type_name, member.names, member.arity) if member else ("-", ("-",), -1)
    types = ",".join(member.param_types) if member and member.param_types else "-"
    return "\t".join([candidate_dll, baseline_dll or "-", type_name, ",".join(names), str(arity),
                      ",".join(sorted(allowed)) or "-", types, refs_dll or baseline_dll or "-"]) + "\n"


def parse_output(stdout: str) -> list[PolicyVerdict]:
    """The checker's answers, one PolicyVerdict per job, in job order."""
    verdicts, current = [], PolicyVerdict()
    for line in stdout.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "DENY":
            capability, _, rest = rest.partition("\t")
            api, _, where = rest.partition("\t")
            current.denials.append(Denial(capability, api, where))
        elif kind == "ERROR":
            current.error = rest.strip()
        elif kind == "DONE":
            parts = rest.split()
            current.inspected = int(parts[0]) if parts and parts[0].isdigit() else 0
            current.seconds = int(parts[1]) / 1000 if len(parts) > 1 and parts[1].isdigit() else 0.0
            current.cpu = int(parts[2]) / 1000 if len(parts) > 2 and parts[2].isdigit() else 0.0
            current.denials.sort(key=lambda d: (CAPABILITIES.index(d.capability)
                                                if d.capability in CAPABILITIES else 99, d.api))
            verdicts.append(current)
            current = PolicyVerdict()
    return verdicts


def run_checker(run, exe: str, jobs: list[str]) -> list[PolicyVerdict]:
    """Run the checker over `jobs` with `run(argv, stdin) -> (exit_code, stdout, timed_out)`; a job
    without an answer is an error verdict (the candidate is rejected, never passed unchecked)."""
    started = time.monotonic()
    code, stdout, timed_out = run(checker_argv(exe), stdin_of(jobs))
    verdicts = answers(stdout, len(jobs), "timed out" if timed_out else f"exit {code}")
    if len(jobs) == 1:
        verdicts[0].seconds = time.monotonic() - started
    return verdicts


def stdin_of(jobs: list[str]) -> bytes:
    return ("".join(jobs) + "END\n").encode()


def answers(stdout: str, jobs: int, why: str) -> list[PolicyVerdict]:
    """The checker's verdicts for `jobs` jobs; a job without an answer is an error verdict saying `why`."""
    verdicts = parse_output(stdout)
    return verdicts + [PolicyVerdict(error=f"the checker ended without an answer ({why})")
                       for _ in range(jobs - len(verdicts))]


# The build's last compile and the check in one sandboxed command (no second process round trip, which
# costs a `docker exec` per candidate): the compiler's exit status is kept; only once it compiled does
# the shell print CHAINED_MARK and become the checker, which reads the jobs on stdin (mcs reads none).
CHAINED_MARK = "@@REPOTRANS-POLICY-CHECK"
_CHAINED = ('a=$1 b=$2 c=$3; shift 3; "$@" </dev/null || exit $?; echo ' + CHAINED_MARK
            + '; exec "$a" "$b" "$c"')


def chained_argv(exe: str, compile_argv: list[str]) -> list[str]:
    """`compile_argv`, then (when it succeeds) the checker `exe` on stdin's jobs, as one command."""
    return ["sh", "-c", _CHAINED, "sh", *checker_argv(exe), *compile_argv]     # the checker's three words


def split_chained(output: str) -> tuple[str, str | None]:
    """(the compiler's part of a chained command's output, the checker's part or None if it never ran)."""
    head, mark, rest = output.partition(CHAINED_MARK + "\n")
    return (head, rest) if mark else (output, None)
