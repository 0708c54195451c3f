"""The deterministic Java -> C# translator: the offline builtin model (`--model builtin`), sync's editor,
skeleton bodies and JUnit translation all use it.

java2cs.translate_method  syntax-directed Java -> C# 6 method translation (tree-sitter Java tree; statements: java_stmt)
java_expr / java_calls    expressions; JDK calls mapped through jdk_map.toml (data)
resolver                  C# names of project members: conventions, or gathered tool context
repair                    rule-based fixes keyed on compiler diagnostics
base_calls                a constructor's super(...) as a base call the port's base class has (Java's this(...) delegation)
reading                   a step prompt read back (step, Input, calls, candidate, test result)
steps / builtin           per-agent-step answers and the AutoGen ChatCompletionClient around them (reads its prompt)
"""
