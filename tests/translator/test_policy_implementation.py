"""A body-less Java method is translated from its one implementation (issue 34): NSoup's ConnectionBase.Url()
is paired with jsoup's interface method Connection.Base.url(), implemented once in HttpConnection.Base; the
builtin wrote `public Uri Url();` (CS0501, 12 of NSoup's 310 validated tasks). Shapes after jsoup's."""
from __future__ import annotations

from repotrans.translator.implementation import implementation
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from tests.support.indexes import mapped_pair

JAVA = {
    "org/web/Connection.java": """package org.web;
public interface Connection {
    interface Base { String url(); Base url(String url); int timeout(); }
}
""",
    "org/web/helper/HttpConnection.java": """package org.web.helper;
import org.web.Connection;
public class HttpConnection {
    private static abstract class Base implements Connection.Base {
        String url;
        public String url() { return url; }
        public Connection.Base url(String url) { this.url = url; return this; }
    }
    public static class Request extends Base {
        public int timeout() { return 3; }
    }
    public static class Response extends Base {
        public int timeout() { return 4; }
    }
}
""",
}
CS = {"Web/Helper/ConnectionBase.cs": """namespace Web.Helper
{
    public abstract class ConnectionBase
    {
        protected string url;
        public string Url() { return url; }
    }
}
"""}


def test_an_interface_method_is_translated_from_its_one_implementation(tmp_path):
    _, index = mapped_pair(tmp_path, JAVA, CS)
    methods = {(m.name, len(m.params)): m for m in index.methods("source:org.web.Connection.Base")}
    found = implementation(index, methods[("url", 0)])
    assert found.id == "source:org.web.helper.HttpConnection.Base.url()" and found.body
    assert implementation(index, found) is found                        # a body: itself
    assert implementation(index, methods[("timeout", 0)]) is methods[("timeout", 0)]   # two: none chosen
    code = translate_method(found, ContextResolver("Base", {}), "public string Url()")
    assert "return url;" in code
