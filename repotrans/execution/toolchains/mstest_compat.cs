// repotrans: MSTest's test surface (Microsoft.VisualStudio.TestTools.UnitTesting, as in VS 2010's
// QualityTools.UnitTestFramework and MSTest.TestFramework 1.x/2.x) on NUnit 2.6 (mono's runner),
// compiled into a test assembly whose project references MSTest instead of MSTest's own assembly.
// The attributes derive from NUnit 2.6's, which finds them by their base types' names; Assert,
// StringAssert and CollectionAssert keep MSTest's semantics (Object.Equals, argument order) and fail
// with NUnit's AssertionException (NUnit 2.6 takes only that type's name for a failure), their
// messages in MSTest's words plus NUnit's Expected/But was lines. What the layer cannot give is listed
// by mstest_compat.unsupported_features (repotrans doctor).
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text.RegularExpressions;

namespace Microsoft.VisualStudio.TestTools.UnitTesting
{
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = false, Inherited = true)]
    public class TestClassAttribute : NUnit.Framework.TestFixtureAttribute { }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class TestMethodAttribute : NUnit.Framework.TestAttribute
    {
        public TestMethodAttribute() { }
        public TestMethodAttribute(string displayName) { DisplayName = displayName; }
        public string DisplayName { get; private set; }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class DataTestMethodAttribute : TestMethodAttribute
    {
        public DataTestMethodAttribute() { }
        public DataTestMethodAttribute(string displayName) : base(displayName) { }
    }

    /// <summary>One row of a data-driven test: an NUnit test case.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
    public class DataRowAttribute : NUnit.Framework.TestCaseAttribute
    {
        public DataRowAttribute(object data1) : base(new object[] { data1 }) { }
        public DataRowAttribute(object data1, params object[] moreData) : base(Join(data1, moreData)) { }
        public string DisplayName { get { return TestName; } set { TestName = value; } }

        static object[] Join(object first, object[] more)
        {
            var all = new object[(more == null ? 0 : more.Length) + 1];
            all[0] = first;
            if (more != null) more.CopyTo(all, 1);
            return all;
        }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class TestInitializeAttribute : NUnit.Framework.SetUpAttribute { }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class TestCleanupAttribute : NUnit.Framework.TearDownAttribute { }

    /// <summary>Once before the class's tests. MSTest passes it a TestContext, which NUnit 2.6 cannot:
    /// such a class is reported not runnable (doctor names it).</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class ClassInitializeAttribute : NUnit.Framework.TestFixtureSetUpAttribute { }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class ClassCleanupAttribute : NUnit.Framework.TestFixtureTearDownAttribute { }

    /// <summary>Not run: NUnit 2.6 has no per-assembly setup (doctor names it).</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class AssemblyInitializeAttribute : Attribute { }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class AssemblyCleanupAttribute : Attribute { }

    /// <summary>The test passes when it throws exactly this type (AllowDerivedTypes is not honoured:
    /// doctor names it).</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class ExpectedExceptionAttribute : NUnit.Framework.ExpectedExceptionAttribute
    {
        public ExpectedExceptionAttribute(Type exceptionType) : base(exceptionType) { }
        public ExpectedExceptionAttribute(Type exceptionType, string noExceptionMessage) : base(exceptionType)
        {
            UserMessage = noExceptionMessage;
        }
        public bool AllowDerivedTypes { get; set; }
    }

    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class IgnoreAttribute : NUnit.Framework.IgnoreAttribute
    {
        public IgnoreAttribute() { }
        public IgnoreAttribute(string message) : base(message) { }
    }

    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
    public class TestCategoryAttribute : NUnit.Framework.CategoryAttribute
    {
        public TestCategoryAttribute(string testCategory) : base(testCategory) { }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class TimeoutAttribute : NUnit.Framework.TimeoutAttribute
    {
        public TimeoutAttribute(int timeout) : base(timeout) { }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class DescriptionAttribute : NUnit.Framework.DescriptionAttribute
    {
        public DescriptionAttribute(string description) : base(description) { }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
    public class TestPropertyAttribute : NUnit.Framework.PropertyAttribute
    {
        public TestPropertyAttribute(string name, string value) : base(name, value) { }
    }

    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class OwnerAttribute : Attribute { public OwnerAttribute(string owner) { } }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public class PriorityAttribute : Attribute { public PriorityAttribute(int priority) { } }

    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
    public class WorkItemAttribute : Attribute { public WorkItemAttribute(int id) { } }

    /// <summary>Not deployed: the build's CopyToOutputDirectory items are beside the assembly, the
    /// working directory (doctor names the attribute).</summary>
    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
    public class DeploymentItemAttribute : Attribute
    {
        public DeploymentItemAttribute(string path) { }
        public DeploymentItemAttribute(string path, string outputDirectory) { }
    }

    /// <summary>Never set by NUnit 2.6: a TestContext property stays null (doctor names its use).</summary>
    public abstract class TestContext
    {
        public abstract IDictionary Properties { get; }
        public virtual string TestName { get { return null; } }
        public abstract void WriteLine(string format, params object[] args);
    }

    /// <summary>MSTest's base of assertion exceptions; its Assert fails with NUnit's AssertionException.</summary>
    public class UnitTestAssertException : NUnit.Framework.AssertionException
    {
        public UnitTestAssertException(string message) : base(message) { }
    }

    public class AssertFailedException : UnitTestAssertException
    {
        public AssertFailedException(string message) : base(message) { }
    }

    public class AssertInconclusiveException : UnitTestAssertException
    {
        public AssertInconclusiveException(string message) : base(message) { }
    }

    public static class Assert
    {
        internal static void Raise(string assertion, string message, object[] parameters, string detail)
        {
            string user = message == null ? "" : (parameters != null && parameters.Length > 0
                ? string.Format(CultureInfo.CurrentCulture, message, parameters) : message);
            string text = "Assert." + assertion + " failed. " + user;
            throw new NUnit.Framework.AssertionException(detail == null ? text : text.TrimEnd() + "\n" + detail);
        }

        internal static string Show(object value)
        {
            if (value == null) return "(null)";
            return "<" + Convert.ToString(value, CultureInfo.CurrentCulture) + ">";
        }

        static string Lines(object expected, object actual)
        {
            return "  Expected: " + Show(expected) + "\n  But was:  " + Show(actual) + "\n";
        }

        public static void Fail() { Raise("Fail", null, null, null); }
        public static void Fail(string message, params object[] parameters) { Raise("Fail", message, parameters, null); }
        public static void Inconclusive() { Inconclusive(""); }
        public static void Inconclusive(string message, params object[] parameters)
        {
            throw new NUnit.Framework.InconclusiveException(parameters != null && parameters.Length > 0
                ? string.Format(CultureInfo.CurrentCulture, message, parameters) : message);
        }

        public static void IsTrue(bool condition) { IsTrue(condition, null); }
        public static void IsTrue(bool condition, string message, params object[] parameters)
        {
            if (!condition) Raise("IsTrue", message, parameters, null);
        }
        public static void IsFalse(bool condition) { IsFalse(condition, null); }
        public static void IsFalse(bool condition, string message, params object[] parameters)
        {
            if (condition) Raise("IsFalse", message, parameters, null);
        }
        public static void IsNull(object value) { IsNull(value, null); }
        public static void IsNull(object value, string message, params object[] parameters)
        {
            if (value != null) Raise("IsNull", message, parameters, null);
        }
        public static void IsNotNull(object value) { IsNotNull(value, null); }
        public static void IsNotNull(object value, string message, params object[] parameters)
        {
            if (value == null) Raise("IsNotNull", message, parameters, null);
        }

        public static void AreEqual<T>(T expected, T actual) { AreEqual(expected, actual, null); }
        public static void AreEqual<T>(T expected, T actual, string message, params object[] parameters)
        {
            if (!object.Equals(expected, actual)) Raise("AreEqual", message, parameters, Lines(expected, actual));
        }
        public static void AreEqual(object expected, object actual) { AreEqual<object>(expected, actual, null); }
        public static void AreEqual(object expected, object actual, string message, params object[] parameters)
        {
            AreEqual<object>(expected, actual, message, parameters);
        }
        public static void AreEqual(double expected, double actual, double delta) { AreEqual(expected, actual, delta, null); }
        public static void AreEqual(double expected, double actual, double delta, string message, params object[] parameters)
        {
            if (double.IsNaN(expected) || double.IsNaN(actual) || double.IsNaN(delta) || Math.Abs(expected - actual) > delta)
                if (!(expected.Equals(actual)))
                    Raise("AreEqual", message, parameters, Lines(expected, actual) + "  Delta: " + delta + "\n");
        }
        public static void AreEqual(float expected, float actual, float delta) { AreEqual(expected, actual, delta, null); }
        public static void AreEqual(float expected, float actual, float delta, string message, params object[] parameters)
        {
            AreEqual((double)expected, (double)actual, (double)delta, message, parameters);
        }
        public static void AreEqual(string expected, string actual, bool ignoreCase) { AreEqual(expected, actual, ignoreCase, null); }
        public static void AreEqual(string expected, string actual, bool ignoreCase, string message, params object[] parameters)
        {
            if (string.Compare(expected, actual, ignoreCase, CultureInfo.InvariantCulture) != 0)
                Raise("AreEqual", message, parameters, Lines(expected, actual));
        }

        public static void AreNotEqual<T>(T notExpected, T actual) { AreNotEqual(notExpected, actual, null); }
        public static void AreNotEqual<T>(T notExpected, T actual, string message, params object[] parameters)
        {
            if (object.Equals(notExpected, actual))
                Raise("AreNotEqual", message, parameters, "  Expected: any value except " + Show(notExpected) + "\n  But was:  " + Show(actual) + "\n");
        }
        public static void AreNotEqual(object notExpected, object actual) { AreNotEqual<object>(notExpected, actual, null); }
        public static void AreNotEqual(object notExpected, object actual, string message, params object[] parameters)
        {
            AreNotEqual<object>(notExpected, actual, message, parameters);
        }
        public static void AreNotEqual(double notExpected, double actual, double delta)
        {
            if (Math.Abs(notExpected - actual) <= delta) Raise("AreNotEqual", null, null, Lines(notExpected, actual));
        }

        public static void AreSame(object expected, object actual) { AreSame(expected, actual, null); }
        public static void AreSame(object expected, object actual, string message, params object[] parameters)
        {
            if (!object.ReferenceEquals(expected, actual)) Raise("AreSame", message, parameters, Lines(expected, actual));
        }
        public static void AreNotSame(object notExpected, object actual) { AreNotSame(notExpected, actual, null); }
        public static void AreNotSame(object notExpected, object actual, string message, params object[] parameters)
        {
            if (object.ReferenceEquals(notExpected, actual)) Raise("AreNotSame", message, parameters, null);
        }

        public static void IsInstanceOfType(object value, Type expectedType) { IsInstanceOfType(value, expectedType, null); }
        public static void IsInstanceOfType(object value, Type expectedType, string message, params object[] parameters)
        {
            if (expectedType == null || !expectedType.IsInstanceOfType(value))
                Raise("IsInstanceOfType", message, parameters, Lines(expectedType, value == null ? null : value.GetType()));
        }
        public static void IsNotInstanceOfType(object value, Type wrongType) { IsNotInstanceOfType(value, wrongType, null); }
        public static void IsNotInstanceOfType(object value, Type wrongType, string message, params object[] parameters)
        {
            if (wrongType == null || wrongType.IsInstanceOfType(value))
                Raise("IsNotInstanceOfType", message, parameters, null);
        }

        public static T ThrowsException<T>(Action action) where T : Exception { return ThrowsException<T>(action, null); }
        public static T ThrowsException<T>(Action action, string message, params object[] parameters) where T : Exception
        {
            try { action(); }
            catch (Exception e)
            {
                if (e.GetType() == typeof(T)) return (T)e;
                Raise("ThrowsException", message, parameters, Lines(typeof(T), e.GetType()));
            }
            Raise("ThrowsException", message, parameters, Lines(typeof(T), "no exception"));
            return null;
        }
        public static T ThrowsException<T>(Func<object> action) where T : Exception
        {
            return ThrowsException<T>(() => { action(); });
        }
    }

    public static class StringAssert
    {
        public static void Contains(string value, string substring) { Contains(value, substring, null); }
        public static void Contains(string value, string substring, string message, params object[] parameters)
        {
            if (value == null || substring == null || value.IndexOf(substring, StringComparison.Ordinal) < 0)
                Assert.Raise("StringAssert.Contains", message, parameters, "  String " + Assert.Show(value) + " does not contain " + Assert.Show(substring) + "\n");
        }
        public static void StartsWith(string value, string substring) { StartsWith(value, substring, null); }
        public static void StartsWith(string value, string substring, string message, params object[] parameters)
        {
            if (value == null || substring == null || !value.StartsWith(substring, StringComparison.Ordinal))
                Assert.Raise("StringAssert.StartsWith", message, parameters, null);
        }
        public static void EndsWith(string value, string substring) { EndsWith(value, substring, null); }
        public static void EndsWith(string value, string substring, string message, params object[] parameters)
        {
            if (value == null || substring == null || !value.EndsWith(substring, StringComparison.Ordinal))
                Assert.Raise("StringAssert.EndsWith", message, parameters, null);
        }
        public static void Matches(string value, Regex pattern) { Matches(value, pattern, null); }
        public static void Matches(string value, Regex pattern, string message, params object[] parameters)
        {
            if (value == null || pattern == null || !pattern.IsMatch(value))
                Assert.Raise("StringAssert.Matches", message, parameters, null);
        }
        public static void DoesNotMatch(string value, Regex pattern) { DoesNotMatch(value, pattern, null); }
        public static void DoesNotMatch(string value, Regex pattern, string message, params object[] parameters)
        {
            if (value == null || pattern == null || pattern.IsMatch(value))
                Assert.Raise("StringAssert.DoesNotMatch", message, parameters, null);
        }
    }

    public static class CollectionAssert
    {
        static List<object> Items(ICollection c) { var l = new List<object>(); foreach (object o in c) l.Add(o); return l; }

        public static void AreEqual(ICollection expected, ICollection actual) { AreEqual(expected, actual, (string)null); }
        public static void AreEqual(ICollection expected, ICollection actual, string message, params object[] parameters)
        {
            AreEqual(expected, actual, null, message, parameters);
        }
        public static void AreEqual(ICollection expected, ICollection actual, IComparer comparer) { AreEqual(expected, actual, comparer, null); }
        public static void AreEqual(ICollection expected, ICollection actual, IComparer comparer, string message, params object[] parameters)
        {
            if (object.ReferenceEquals(expected, actual)) return;
            if (expected == null || actual == null) { Assert.Raise("CollectionAssert.AreEqual", message, parameters, null); return; }
            List<object> e = Items(expected), a = Items(actual);
            if (e.Count != a.Count)
                Assert.Raise("CollectionAssert.AreEqual", message, parameters, "  Expected: " + e.Count + " elements\n  But was:  " + a.Count + " elements\n");
            for (int i = 0; i < e.Count; i++)
            {
                bool same = comparer != null ? comparer.Compare(e[i], a[i]) == 0 : object.Equals(e[i], a[i]);
                if (!same)
                    Assert.Raise("CollectionAssert.AreEqual", message, parameters, "  Element at index " + i + " do not match.\n  Expected: "
                                + Assert.Show(e[i]) + "\n  But was:  " + Assert.Show(a[i]) + "\n");
            }
        }
        public static void AreNotEqual(ICollection notExpected, ICollection actual)
        {
            bool equal = true;
            try { AreEqual(notExpected, actual); } catch (NUnit.Framework.AssertionException) { equal = false; }
            if (equal) Assert.Raise("CollectionAssert.AreNotEqual", null, null, null);
        }
        public static void AreEquivalent(ICollection expected, ICollection actual) { AreEquivalent(expected, actual, null); }
        public static void AreEquivalent(ICollection expected, ICollection actual, string message, params object[] parameters)
        {
            if (expected == null || actual == null)
            {
                if (!object.ReferenceEquals(expected, actual)) Assert.Raise("CollectionAssert.AreEquivalent", message, parameters, null);
                return;
            }
            List<object> rest = Items(actual);
            foreach (object o in expected)
            {
                int at = rest.FindIndex(x => object.Equals(x, o));
                if (at < 0) Assert.Raise("CollectionAssert.AreEquivalent", message, parameters, "  Missing: " + Assert.Show(o) + "\n");
                rest.RemoveAt(at);
            }
            if (rest.Count > 0) Assert.Raise("CollectionAssert.AreEquivalent", message, parameters, "  Extra: " + Assert.Show(rest[0]) + "\n");
        }
        public static void Contains(ICollection collection, object element) { Contains(collection, element, null); }
        public static void Contains(ICollection collection, object element, string message, params object[] parameters)
        {
            if (collection == null || !Items(collection).Exists(x => object.Equals(x, element)))
                Assert.Raise("CollectionAssert.Contains", message, parameters, null);
        }
        public static void DoesNotContain(ICollection collection, object element) { DoesNotContain(collection, element, null); }
        public static void DoesNotContain(ICollection collection, object element, string message, params object[] parameters)
        {
            if (collection == null || Items(collection).Exists(x => object.Equals(x, element)))
                Assert.Raise("CollectionAssert.DoesNotContain", message, parameters, null);
        }
        public static void AllItemsAreNotNull(ICollection collection) { AllItemsAreNotNull(collection, null); }
        public static void AllItemsAreNotNull(ICollection collection, string message, params object[] parameters)
        {
            if (collection == null || Items(collection).Exists(x => x == null))
                Assert.Raise("CollectionAssert.AllItemsAreNotNull", message, parameters, null);
        }
        public static void AllItemsAreUnique(ICollection collection) { AllItemsAreUnique(collection, null); }
        public static void AllItemsAreUnique(ICollection collection, string message, params object[] parameters)
        {
            List<object> items = collection == null ? null : Items(collection);
            for (int i = 0; items != null && i < items.Count; i++)
                if (items.FindIndex(i + 1, x => object.Equals(x, items[i])) >= 0)
                    Assert.Raise("CollectionAssert.AllItemsAreUnique", message, parameters, "  Duplicate: " + Assert.Show(items[i]) + "\n");
        }
        public static void AllItemsAreInstancesOfType(ICollection collection, Type expectedType)
        {
            if (collection == null || Items(collection).Exists(x => !expectedType.IsInstanceOfType(x)))
                Assert.Raise("CollectionAssert.AllItemsAreInstancesOfType", null, null, null);
        }
        public static void IsSubsetOf(ICollection subset, ICollection superset)
        {
            List<object> super = Items(superset);
            foreach (object o in subset)
                if (!super.Exists(x => object.Equals(x, o))) Assert.Raise("CollectionAssert.IsSubsetOf", null, null, null);
        }
        public static void IsNotSubsetOf(ICollection subset, ICollection superset)
        {
            List<object> super = Items(superset);
            foreach (object o in subset)
                if (!super.Exists(x => object.Equals(x, o))) return;
            Assert.Raise("CollectionAssert.IsNotSubsetOf", null, null, null);
        }
    }
}
