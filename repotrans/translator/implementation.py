"""The Java code of a member the mapping paired through an interface: jsoup declares
`Connection.Base.url()` in an interface and implements it once, in `HttpConnection.Base`; NSoup's
ConnectionBase.Url() is that implementation, but the pair names the interface method, whose Java side has
no body (the builtin wrote `public Uri Url();`, CS0501, 12 of NSoup's 310 validated tasks). A body-less Java
method is translated from its one implementation among the project types deriving from its type."""
from __future__ import annotations

from repotrans.index.model import Method


def implementation(index, java: Method) -> Method:
    """`java` itself when it has a body; else the one method with a body, its name and its parameter count
    that the Java types deriving from its type declare (nearest first), when there is exactly one."""
    if java.body:
        return java
    decl = index.type(java.type_id)
    if decl is None:
        return java
    found = [m for t in index.subtypes(decl) for m in index.methods(t.id)
             if m.name == java.name and len(m.params) == len(java.params) and m.body]
    return found[0] if len(found) == 1 else java
