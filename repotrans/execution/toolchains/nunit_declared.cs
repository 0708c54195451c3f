// repotrans's runner, the facts a passing test rests on (compiled with nunit_runner.cs).
//
// NUnit counts a test as passed when its result says Success, whatever set it: a handler it calls on a thrown
// exception, a name compared as text. The runner believes a Success only from facts it reads itself:
//   - the test method returned normally, and the test declares no exception; or
//   - it threw an exception whose runtime type is exactly the one the test declares (ExpectedException, or a
//     test case's ExpectedException: what NUnit read from the test assembly's metadata when it loaded it, before
//     any test ran; a type declared by name only is the one no other assembly declares too), or any exception
//     where the test declares one without naming a type.
// The test methods are watched: after the test assembly loads, each NUnit test method of the tree is swapped for
// a copy whose RunTestMethod (the call of the test's own method, NUnit's Assert.Throws and the test's asserts
// inside it) notes what happened, in this runner. A Success with no such fact (a method not watched, a result
// set without the method having run) is no pass.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.Serialization;
using NUnit.Core;

partial class RepotransRunner
{
    internal sealed class Declared
    {
        const BindingFlags Fields = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic
                                    | BindingFlags.DeclaredOnly;
        readonly object gate = new object();
        readonly Dictionary<string, List<Type>> seen = new Dictionary<string, List<Type>>();   // null: returned
        readonly Dictionary<string, Type> declaredType = new Dictionary<string, Type>();
        readonly Dictionary<string, string> declaredName = new Dictionary<string, string>();  // "": any exception
        readonly HashSet<string> watched = new HashSet<string>();

        /// <summary>Swap every NUnit test method of the loaded tree for a watched copy.</summary>
        public void Watch(SimpleTestRunner runner)
        {
            var field = typeof(SimpleTestRunner).GetField("test", BindingFlags.Instance | BindingFlags.NonPublic);
            var root = field == null ? null : field.GetValue(runner) as Test;
            if (root != null) Walk(root);
        }

        void Walk(Test test)
        {
            var suite = test as TestSuite;
            if (suite == null) return;
            IList tests = suite.Tests;
            for (int i = 0; i < tests.Count; i++)
            {
                var child = tests[i] as Test;
                if (child == null) continue;
                Type type = child.GetType();
                Test copy = type == typeof(NUnitTestMethod) ? Copy(child, typeof(WatchedMethod))
                          : type == typeof(NUnitAsyncTestMethod) ? Copy(child, typeof(WatchedAsyncMethod)) : null;
                if (copy != null)
                {
                    tests[i] = copy;
                    Note(copy);
                }
                else Walk(child);
            }
        }

        /// <summary>`test` as an object of `type` (a subclass of its own type declaring no field): every field copied.</summary>
        Test Copy(Test test, Type type)
        {
            object copy = FormatterServices.GetUninitializedObject(type);
            for (Type t = test.GetType(); t != null && t != typeof(object); t = t.BaseType)
                foreach (FieldInfo f in t.GetFields(Fields)) f.SetValue(copy, f.GetValue(test));
            var watchedCopy = (IWatched)copy;
            watchedCopy.Facts = this;
            var processor = Field(copy, "exceptionProcessor");
            if (processor != null)      // its handler runs on the test's fixture: this copy's
            {
                var back = processor.GetType().GetField("testMethod", BindingFlags.Instance | BindingFlags.NonPublic);
                if (back != null) back.SetValue(processor, copy);
            }
            return (Test)copy;
        }

        static object Field(object o, string name)
        {
            for (Type t = o.GetType(); t != null; t = t.BaseType)
            {
                var f = t.GetField(name, Fields);
                if (f != null) return f.GetValue(o);
            }
            return null;
        }

        /// <summary>What the test declares it may throw, from NUnit's reading of its metadata at load.</summary>
        void Note(Test test)
        {
            string name = test.TestName.FullName;
            object processor = Field(test, "exceptionProcessor");
            lock (gate)
            {
                watched.Add(name);
                if (processor == null) return;
                declaredType[name] = (Type)Field(processor, "expectedExceptionType");
                declaredName[name] = (string)Field(processor, "expectedExceptionName") ?? "";
            }
        }

        public void Saw(string test, Type thrown) { lock (gate) { List<Type> s; if (!seen.TryGetValue(test, out s)) seen[test] = s = new List<Type>(); s.Add(thrown); } }

        /// <summary>null when a Success of `test` rests on what the runner saw; else why it does not. The facts
        /// of the test are then dropped (a test case named twice is judged on each run's own).</summary>
        public string Unfounded(string test)
        {
            lock (gate)
            {
                List<Type> facts;
                seen.TryGetValue(test, out facts);
                seen.Remove(test);
                if (!watched.Contains(test)) return "the runner does not watch this kind of test method";
                if (facts == null || facts.Count == 0) return "the test method never ran under the runner's watch";
                string name;
                bool declares = declaredName.TryGetValue(test, out name);
                foreach (Type thrown in facts)
                {
                    if (thrown == null && !declares) continue;
                    if (thrown == null) return "the test method returned, and the test declares " + (name.Length > 0 ? name : "an exception");
                    if (thrown.FullName == "NUnit.Framework.SuccessException" && Forgeries.Framework(thrown.Assembly)) continue;
                    if (!declares) return "the test method threw " + thrown.FullName + " and the test declares no exception";
                    Type exact = declaredType[test];
                    if (name.Length > 0 && (thrown.FullName != name || (exact != null && thrown != exact)
                                            || DeclaredElsewhere(name, thrown.Assembly)))
                        return "the test method threw " + thrown.FullName + " (declared in " + thrown.Assembly.GetName().Name
                               + "), not the " + name + " the test declares";
                }
                return null;
            }
        }
    }

    /// <summary>Whether an assembly other than `own` declares a type of that full name: a type named like the
    /// one a test declares by name only, in the assembly a candidate compiles into, is an impostor.</summary>
    static bool DeclaredElsewhere(string name, Assembly own)
    {
        foreach (var assembly in AppDomain.CurrentDomain.GetAssemblies())
        {
            if (assembly == own) continue;
            try { if (assembly.GetType(name, false) != null) return true; }
            catch (Exception) { }
        }
        return false;
    }

    interface IWatched { Declared Facts { set; } }

    sealed class WatchedMethod : NUnitTestMethod, IWatched
    {
        Declared facts;
        WatchedMethod(MethodInfo method) : base(method) { }
        public Declared Facts { set { facts = value; } }
        protected override object RunTestMethod() { return Watch(facts, TestName.FullName, base.RunTestMethod); }
    }

    sealed class WatchedAsyncMethod : NUnitAsyncTestMethod, IWatched
    {
        Declared facts;
        WatchedAsyncMethod(MethodInfo method) : base(method) { }
        public Declared Facts { set { facts = value; } }
        protected override object RunTestMethod() { return Watch(facts, TestName.FullName, base.RunTestMethod); }
    }

    /// <summary>Run the test's method, noting whether it returned or the runtime type of what it threw.</summary>
    static object Watch(Declared facts, string test, Func<object> run)
    {
        object value;
        try { value = run(); }
        catch (Exception e)
        {
            Exception thrown = e is NUnitException && e.InnerException != null ? e.InnerException : e;
            facts.Saw(test, thrown.GetType());
            throw;
        }
        facts.Saw(test, null);
        return value;
    }
}
