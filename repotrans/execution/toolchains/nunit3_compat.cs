// repotrans: the NUnit 3 surface on NUnit 2.6 (mono's nunit-console), compiled into a test assembly
// whose project references NUnit 3 or later. Names NUnit 2.6 lacks are added in NUnit.Framework;
// Assert, Is, Has, Throws and TestContext are NUnit.Framework classes of this assembly deriving
// from NUnit 2.6's (reached through the extern alias nunit2): a type in source wins over the
// imported one of the same name (warning CS0436, silenced), so `using NUnit.Framework;`,
// `NUnit.Framework.Assert.X` and `using Assert = NUnit.Framework.Assert;` all find the extended
// class, and nothing is added to the global namespace for a test file's own names to collide with.
// What this layer cannot give is listed by nunit3_compat.unsupported_features (repotrans doctor).
extern alias nunit2;
using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using NUnit.Framework.Constraints;

namespace NUnit.Framework
{
    /// <summary>NUnit 3's name for TestFixtureSetUp: once before the fixture's tests.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class OneTimeSetUpAttribute : TestFixtureSetUpAttribute { }

    /// <summary>NUnit 3's name for TestFixtureTearDown: once after the fixture's tests.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class OneTimeTearDownAttribute : TestFixtureTearDownAttribute { }

    /// <summary>The class or member a test is of; kept as the TestOf property.</summary>
    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Method | AttributeTargets.Assembly, AllowMultiple = false, Inherited = false)]
    public class TestOfAttribute : PropertyAttribute
    {
        public TestOfAttribute(Type type) : base("TestOf", type.FullName) { }
        public TestOfAttribute(string typeName) : base("TestOf", typeName) { }
    }

    [Flags]
    public enum ParallelScope { Default = 0, None = 1, Self = 16, Children = 256, Fixtures = 512, All = Self | Children }

    public enum LifeCycle { SingleInstance, InstancePerTestCase }

    /// <summary>Parallel execution hints: tests run one at a time here, which every hint allows.</summary>
    [AttributeUsage(AttributeTargets.Assembly | AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class ParallelizableAttribute : Attribute
    {
        public ParallelizableAttribute() { }
        public ParallelizableAttribute(ParallelScope scope) { }
    }

    [AttributeUsage(AttributeTargets.Assembly | AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class NonParallelizableAttribute : Attribute { }

    [AttributeUsage(AttributeTargets.Assembly, AllowMultiple = false)]
    public class LevelOfParallelismAttribute : Attribute
    {
        public LevelOfParallelismAttribute(int level) { }
    }

    /// <summary>Test order hint; NUnit 2.6 runs tests by name.</summary>
    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class OrderAttribute : Attribute
    {
        public OrderAttribute(int order) { Order = order; }
        public int Order { get; private set; }
    }

    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Method | AttributeTargets.Assembly, AllowMultiple = true, Inherited = false)]
    public class AuthorAttribute : PropertyAttribute
    {
        public AuthorAttribute(string name) : base("Author", name) { }
        public AuthorAttribute(string name, string email) : base("Author", name + " <" + email + ">") { }
    }

    /// <summary>A retried test runs once here: a failure is reported as it is.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class RetryAttribute : Attribute
    {
        public RetryAttribute(int tryCount) { }
    }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = false, Inherited = true)]
    public class FixtureLifeCycleAttribute : Attribute
    {
        public FixtureLifeCycleAttribute(LifeCycle lifeCycle) { }
    }

    public static class Does
    {
        public static Constraint Contain(object expected) { return new ContainsConstraint(expected); }
        public static Constraint StartWith(string expected) { return new StartsWithConstraint(expected); }
        public static Constraint EndWith(string expected) { return new EndsWithConstraint(expected); }
        public static Constraint Match(string pattern) { return new RegexConstraint(pattern); }
        public static DoesNot Not { get { return new DoesNot(); } }
    }

    public class DoesNot
    {
        public Constraint Contain(object expected) { return new NotConstraint(new ContainsConstraint(expected)); }
        public Constraint StartWith(string expected) { return new NotConstraint(new StartsWithConstraint(expected)); }
        public Constraint EndWith(string expected) { return new NotConstraint(new EndsWithConstraint(expected)); }
        public Constraint Match(string pattern) { return new NotConstraint(new RegexConstraint(pattern)); }
    }

    /// <summary>NUnit 3's verbs after And/Or/Not/All in a constraint expression.</summary>
    public static class ConstraintExpressionNUnit3
    {
        public static Constraint Contain(this ConstraintExpression e, object expected) { return e.Contains(expected); }
        public static Constraint StartWith(this ConstraintExpression e, string expected) { return e.StartsWith(expected); }
        public static Constraint EndWith(this ConstraintExpression e, string expected) { return e.EndsWith(expected); }
        public static Constraint Match(this ConstraintExpression e, string pattern) { return e.StringMatching(pattern); }
    }

    /// <summary>TestContext.CurrentContext in NUnit 3's shape, over NUnit 2.6's context.</summary>
    public class TestContext3
    {
        private readonly nunit2::NUnit.Framework.TestContext inner = nunit2::NUnit.Framework.TestContext.CurrentContext;
        private static readonly Randomizer random = new Randomizer();

        public TestAdapter3 Test { get { return new TestAdapter3(inner.Test); } }
        public nunit2::NUnit.Framework.TestContext.ResultAdapter Result { get { return inner.Result; } }
        public string TestDirectory { get { return inner.TestDirectory; } }
        public string WorkDirectory { get { return inner.WorkDirectory; } }
        public Randomizer Random { get { return random; } }
        public int CurrentRepeatCount { get { return 0; } }
        public string WorkerId { get { return null; } }
    }

    public class TestAdapter3
    {
        private readonly nunit2::NUnit.Framework.TestContext.TestAdapter inner;
        public TestAdapter3(nunit2::NUnit.Framework.TestContext.TestAdapter inner) { this.inner = inner; }
        public string Name { get { return inner.Name; } }
        public string FullName { get { return inner.FullName; } }
        public string MethodName
        {
            get { var n = inner.Name ?? ""; var p = n.IndexOf('('); return p < 0 ? n : n.Substring(0, p); }
        }
        public string ClassName
        {
            get
            {
                var full = inner.FullName ?? ""; var p = full.IndexOf('('); if (p >= 0) full = full.Substring(0, p);
                var dot = full.LastIndexOf('.'); return dot < 0 ? full : full.Substring(0, dot);
            }
        }
        public IDictionary Properties { get { return inner.Properties; } }
        public string ID { get { return FullName; } }
    }

    public class TestParameters
    {
        public int Count { get { return 0; } }
        public IEnumerable<string> Names { get { return new string[0]; } }
        public bool Exists(string name) { return false; }
        public string this[string name] { get { return null; } }
        public string Get(string name) { return null; }
        public string Get(string name, string defaultValue) { return defaultValue; }
        public T Get<T>(string name, T defaultValue) { return defaultValue; }
    }
}

namespace NUnit.Framework
{
    /// <summary>NUnit 2.6's Assert plus NUnit 3's additions.</summary>
    public class Assert : nunit2::NUnit.Framework.Assert
    {
        /// <summary>Runs every assertion of the block; fails with the first failure (NUnit 2.6 stops at
        /// an assertion's failure, so later ones in the same block are not reported).</summary>
        public static void Multiple(nunit2::NUnit.Framework.TestDelegate testDelegate) { testDelegate(); }

        public static void Zero(int actual) { That(actual, nunit2::NUnit.Framework.Is.EqualTo(0)); }
        public static void Zero(long actual) { That(actual, nunit2::NUnit.Framework.Is.EqualTo(0L)); }
        public static void Zero(double actual) { That(actual, nunit2::NUnit.Framework.Is.EqualTo(0.0)); }
        public static void Zero(decimal actual) { That(actual, nunit2::NUnit.Framework.Is.EqualTo(0m)); }
        public static void Zero(int actual, string message, params object[] args) { That(actual, nunit2::NUnit.Framework.Is.EqualTo(0), message, args); }
        public static void NotZero(int actual) { That(actual, nunit2::NUnit.Framework.Is.Not.EqualTo(0)); }
        public static void NotZero(long actual) { That(actual, nunit2::NUnit.Framework.Is.Not.EqualTo(0L)); }
        public static void NotZero(double actual) { That(actual, nunit2::NUnit.Framework.Is.Not.EqualTo(0.0)); }
        public static void Positive(int actual) { That(actual, nunit2::NUnit.Framework.Is.Positive); }
        public static void Positive(long actual) { That(actual, nunit2::NUnit.Framework.Is.Positive); }
        public static void Positive(double actual) { That(actual, nunit2::NUnit.Framework.Is.Positive); }
        public static void Negative(int actual) { That(actual, nunit2::NUnit.Framework.Is.Negative); }
        public static void Negative(long actual) { That(actual, nunit2::NUnit.Framework.Is.Negative); }
        public static void Negative(double actual) { That(actual, nunit2::NUnit.Framework.Is.Negative); }
        public static void Warn(string message, params object[] args) { Console.WriteLine("Warning: " + string.Format(message, args)); }
    }

    /// <summary>NUnit 2.6's Is plus NUnit 3's additions.</summary>
    public class Is : nunit2::NUnit.Framework.Is
    {
        public static EqualConstraint Zero { get { return new EqualConstraint(0); } }
        public static Constraint Default { get { return new EqualConstraint(null); } }
        public static Constraint AnyOf(params object[] expected)
        {
            Constraint any = null;
            foreach (var e in expected)
            {
                Constraint c = new EqualConstraint(e);
                any = any == null ? c : new OrConstraint(any, c);
            }
            return any ?? new EqualConstraint(new object());
        }
    }

    /// <summary>NUnit 2.6's Has (NUnit 3 adds nothing tests commonly use).</summary>
    public class Has : nunit2::NUnit.Framework.Has { }

    /// <summary>NUnit 2.6's Throws.</summary>
    public class Throws : nunit2::NUnit.Framework.Throws { }

    /// <summary>NUnit 3's TestContext: CurrentContext in the 3.x shape, output writers, parameters.</summary>
    public static class TestContext
    {
        public static TestContext3 CurrentContext { get { return new TestContext3(); } }
        public static TextWriter Out { get { return Console.Out; } }
        public static TextWriter Error { get { return Console.Error; } }
        public static TextWriter Progress { get { return Console.Error; } }
        public static TestParameters Parameters { get { return new TestParameters(); } }
        public static void Write(object value) { Console.Write(value); }
        public static void Write(string format, params object[] args) { Console.Write(format, args); }
        public static void WriteLine() { Console.WriteLine(); }
        public static void WriteLine(object value) { Console.WriteLine(value); }
        public static void WriteLine(string value) { Console.WriteLine(value); }
        public static void WriteLine(string format, params object[] args) { Console.WriteLine(format, args); }
        public static void AddTestAttachment(string filePath, string description = null) { }
    }
}

namespace NUnit.Framework.Legacy
{
    /// <summary>NUnit 4's home of the classic asserts.</summary>
    public class ClassicAssert : NUnit.Framework.Assert { }
}
