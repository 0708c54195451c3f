"""Test fixtures as mapping evidence: a JUnit set-up or tear-down member and the NUnit (or MSTest) member
with the same role in the paired test class are one member whatever their names. A JUnit 3 test class's
constructor is its port's `[TestFixtureSetUp] SetupFixture()`; `setUp()` or `@Before` its `[SetUp]`;
`@AfterClass` its `[OneTimeTearDown]`.

A Java member of a test class the other rounds left unmatched, without parameters, whose role the
annotation, the JUnit 3 name or (for a constructor) set-up says, takes the one parameterless C# member of
the paired class that no Java method claimed and whose attribute names that role. A JUnit 3 constructor
runs before each test as `[SetUp]` does, and ports write it as either kind of set-up: it takes the one
unclaimed set-up member of either kind. Each pairing names the role and the attribute.
"""
from __future__ import annotations

from repotrans.index.model import Method
from repotrans.mapping.matches import MethodMatch

CONFIDENCE = 0.75
JAVA_ROLES = {"Before": "set-up", "BeforeEach": "set-up", "BeforeClass": "fixture set-up",
              "BeforeAll": "fixture set-up", "After": "tear-down", "AfterEach": "tear-down",
              "AfterClass": "fixture tear-down", "AfterAll": "fixture tear-down"}
JUNIT3_ROLES = {"setUp": "set-up", "tearDown": "tear-down"}
CS_ROLES = {"SetUp": "set-up", "TestInitialize": "set-up", "TearDown": "tear-down", "TestCleanup": "tear-down",
            "TestFixtureSetUp": "fixture set-up", "OneTimeSetUp": "fixture set-up", "ClassInitialize": "fixture set-up",
            "TestFixtureTearDown": "fixture tear-down", "OneTimeTearDown": "fixture tear-down",
            "ClassCleanup": "fixture tear-down"}
CONSTRUCTOR_ROLES = ("set-up", "fixture set-up")


def _attribute(text: str) -> str:
    """`@org.junit.Before`, `[NUnit.Framework.SetUpAttribute()]` -> Before, SetUp."""
    name = text.strip("@[] ").split("(", 1)[0].rsplit(".", 1)[-1]
    return name[:-len("Attribute")] if name.endswith("Attribute") else name


def java_roles(jm: Method) -> tuple[str, ...]:
    """The fixture roles a Java test-class member may stand for (none for a test or a helper)."""
    if jm.params:
        return ()
    if jm.kind == "constructor":
        return CONSTRUCTOR_ROLES
    roles = {JAVA_ROLES[a] for a in map(_attribute, jm.annotations) if a in JAVA_ROLES}
    if not roles and jm.name in JUNIT3_ROLES:
        roles.add(JUNIT3_ROLES[jm.name])
    return tuple(sorted(roles))


def cs_role(cm: Method) -> tuple[str, str] | None:
    """(role, attribute) of a parameterless C# fixture method, or None."""
    if cm.kind != "method" or cm.params:
        return None
    return next(((CS_ROLES[a], a) for a in map(_attribute, cm.annotations) if a in CS_ROLES), None)


def match_fixtures(unmatched: dict[str, str], methods: dict[str, Method], counterpart: dict[str, str],
                   cs_members: dict[str, list[Method]], test_types: set[str], claimed: set[str]) -> list[MethodMatch]:
    """Pairs for the unmatched Java fixture members of test classes (see the module doc)."""
    out = []
    for jid in sorted(unmatched):
        jm = methods.get(jid)
        if jm is None or jm.type_id not in test_types or jm.type_id not in counterpart:
            continue
        roles = java_roles(jm)
        if not roles:
            continue
        fits = [(cm, found) for cm in cs_members.get(counterpart[jm.type_id], [])
                if cm.id not in claimed and (found := cs_role(cm)) is not None and found[0] in roles]
        if len(fits) != 1:
            continue
        cm, (role, attribute) = fits[0]
        claimed.add(cm.id)
        said = "a JUnit 3 test class's constructor" if jm.kind == "constructor" else f"JUnit {role}"
        out.append(MethodMatch(jid, cm.id, CONFIDENCE, "test fixture", (
            f"{said} ~ [{attribute}]", "both parameterless", f"the only unclaimed {role} member of its class")))
    return out
