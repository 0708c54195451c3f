// repotrans's own NUnit 2.6 runner: runs one test assembly in this process through NUnit.Core's
// SimpleTestRunner (no remoting channel, no agent, no result file) and reports each test on the
// standard output it was started with, every line tagged with a nonce read from stdin before any
// test code loads. Test code writes to stderr (Console.Out is redirected); a candidate cannot know
// the nonce, so it cannot forge a line, and a run that ends without the END line is no verdict.
//
// usage: mono runner.exe TEST.dll [Ns.Fixture,Ns.Fixture.Method,...]     (stdin: one nonce line)
// stdout: PLAN <declared run state> <name> (each test the filter selects, before any runs)
//         | EXCLUDED <name> <why> (each test the suite says not to run: [Explicit], [Ignore] or an excluded
//           category on it or on a suite above it, left out even when named; in a whole run, or under a name)
//         | START <count> | TEST <result state> <name> <message> <stack> <seconds>
//         | CRASH <text> | UNHANDLED <text> | END <count>
//         (texts base64), each line "\n@@RT <nonce> ..."
//
// With REPOTRANS_REVERSE_ORDER=1 the tests run in the reverse of NUnit's order (every suite's list reversed).
// With REPOTRANS_STOP_AT_FAILURE=1 (a fail-fast run: its verdict is a failure once one test fails) no test or
// suite starts after the first test that failed or erred; STOPPED then comes before END, and the planned tests
// after it have no TEST line. A test named in REPOTRANS_GO_PAST (full names, one a line: tests failing on the
// untouched port, whose failure the verdict leaves out) does not stop it.
//
// Mutant schemata batches (execution/switches/schemata_runs.py): mono runner.exe TEST.dll --schemata, stdin
// the nonce line then one job per line, "<switch> <names, base64 of lines>", then ".". The assembly loads once;
// before each job every RepotransSchemataSwitch copy (one per guarded assembly) is set to its switch.
// Each job: JOB <n> <switch>, its PLAN/START/TEST lines, a HITS <name> <ids> line after each test
// (the guards it reached, "7*" when reached inside a static initializer), BEFORE <name> <ids> before
// each test and once after the last (name empty): guards reached between tests, FIRED <count> <0|1> (its
// switch's guard threw that often; 1: inside a static initializer) and END <count>; TAINTED after a
// job whose guard threw inside a static initializer (the rest of the batch is not run: that type
// stays broken in this process); DONE <count> last.
using System;
using System.IO;
using System.Text;
using System.Threading;
using NUnit.Core;
using NUnit.Core.Filters;

partial class RepotransRunner
{
    // The listener only queues lines; the main thread, which alone holds the nonce (a local never
    // captured by a closure), tags and writes them.
    sealed class Listener : EventListener
    {
        readonly System.Collections.Generic.Queue<string> lines = new System.Collections.Generic.Queue<string>();
        bool finished;
        readonly System.Collections.Generic.List<string[]> parentFailed = new System.Collections.Generic.List<string[]>();
        public int Reported;
        public Switches Switches;           // batches only: the guards each test reached
        public Forgeries Forged;            // types named like NUnit's judged-by-name exceptions, not NUnit's
        public TestCode Tests;              // the test assembly: who may end a test with success
        public ChainRecorder Chains;        // the call chains that reached a placeholder (nunit_chain.cs)
        public Declared Facts = new Declared();     // what each test method did and declares (nunit_declared.cs)
        public bool StopAtFailure;          // REPOTRANS_STOP_AT_FAILURE: start nothing after a failed test, but
                                            // one of REPOTRANS_GO_PAST (failing before any change)
        public System.Collections.Generic.HashSet<string> GoPast = new System.Collections.Generic.HashSet<string>(
            (Environment.GetEnvironmentVariable("REPOTRANS_GO_PAST") ?? "").Split(new[] { '\n' },
                                                                                StringSplitOptions.RemoveEmptyEntries));
        public volatile bool Stopped;       // ... and one has failed

        public void Emit(string line) { lock (lines) { lines.Enqueue(line); Monitor.Pulse(lines); } }
        public void Planned(string line) { Emit("PLAN " + line); }
        public void Finish() { lock (lines) { finished = true; Monitor.Pulse(lines); } }
        /// <summary>The next line, or null once the run is finished and every line is taken.</summary>
        public string Next()
        {
            lock (lines)
            {
                while (lines.Count == 0 && !finished) Monitor.Wait(lines);
                return lines.Count > 0 ? lines.Dequeue() : null;
            }
        }

        public void RunStarted(string name, int testCount) { Emit("START " + testCount); }
        public void RunFinished(TestResult result) { }
        public void RunFinished(Exception exception) { Emit("CRASH " + B64(exception.ToString())); }
        public void TestStarted(TestName testName)
        {
            Chains.Enter(testName.FullName);
            // guards reached between two tests (a fixture's setup, the previous one's teardown)
            if (Switches != null) Emit("BEFORE " + B64(testName.FullName) + " " + B64(Switches.Drain()));
        }
        public void TestFinished(TestResult r)
        {
            Interlocked.Increment(ref Reported);
            string state = r.ResultState.ToString(), message = r.Message ?? "";
            string forged = Forged.First();
            string thrower = r.ResultState == ResultState.Success ? Tests.SuccessThrower(r.StackTrace) : null;
            if (forged != null && r.ResultState != ResultState.Failure && r.ResultState != ResultState.Error)
            {   // NUnit may have judged this test by an impostor's name: only the framework's own decide
                state = "Error";
                message = "an exception type named like the test framework's own is loaded: " + forged
                          + "; only the framework's exceptions decide a test's result";
            }
            else if (thrower != null)
            {   // the framework's own success exception, thrown by code other than the test's
                state = "Error";
                message = "a success exception thrown from " + thrower + ", not by the test itself (Assert.Pass): "
                          + "only a test decides that it succeeded";
            }
            string unfounded = Facts.Unfounded(r.FullName);
            if (state == "Success" && unfounded != null)
            {   // a Success the runner saw nothing behind
                state = "Error";
                message = "no pass: " + unfounded + " (a test passes only when its method returns, or throws "
                          + "exactly the exception it declares)";
            }
            foreach (string chain in Chains.Leave(r.FullName)) Emit(chain);
            if (StopAtFailure && (state == "Failure" || state == "Error") && !GoPast.Contains(r.FullName)) Stopped = true;
            if (r.FailureSite == FailureSite.Parent && string.IsNullOrEmpty(r.StackTrace))
                lock (parentFailed) parentFailed.Add(new string[] { state, r.FullName, message });
            else
                Emit("TEST " + state + " " + B64(r.FullName) + " " + B64(message) + " " + B64(r.StackTrace ?? "")
                     + " " + r.Time.ToString("0.###", System.Globalization.CultureInfo.InvariantCulture));
            if (Switches != null) Emit("HITS " + B64(r.FullName) + " " + B64(Switches.Drain()));
        }
        public void SuiteStarted(TestName testName) { Chains.Enter(testName.FullName); }
        /// <summary>A suite whose own set-up (or tear-down) failed: NUnit fails each test under it with
        /// "TestFixtureSetUp failed in X" and no stack; they are reported now, each with the suite's
        /// exception and frames (the evidence of what threw, a placeholder say), the message kept.</summary>
        public void SuiteFinished(TestResult r)
        {
            foreach (string chain in Chains.Leave(r.FullName)) Emit(chain);
            bool threw = (r.ResultState == ResultState.Failure || r.ResultState == ResultState.Error)
                         && r.FailureSite != FailureSite.Parent && r.FailureSite != FailureSite.Child
                         && !string.IsNullOrEmpty(r.StackTrace);
            if (threw) ReportParentFailed(r.FullName + ".", r.ResultState.ToString(), r.Message ?? "", r.StackTrace);
        }
        /// <summary>The tests failed by a parent suite (under `prefix`; "" all) reported, with that
        /// suite's result state, message and stack when it has them.</summary>
        public void ReportParentFailed(string prefix, string suiteState, string suiteMessage, string stack)
        {
            var held = new System.Collections.Generic.List<string[]>();
            lock (parentFailed)
            {
                held.AddRange(parentFailed.FindAll(t => t[1].StartsWith(prefix, StringComparison.Ordinal)));
                parentFailed.RemoveAll(t => t[1].StartsWith(prefix, StringComparison.Ordinal));
            }
            foreach (string[] t in held)
            {
                string message = suiteMessage.Length > 0 ? suiteMessage + "\n  (" + t[2] + ")" : t[2];
                Emit("TEST " + (suiteState.Length > 0 ? suiteState : t[0]) + " " + B64(t[1]) + " " + B64(message) + " " + B64(stack ?? ""));
            }
        }
        public void UnhandledException(Exception exception) { Emit("UNHANDLED " + B64(exception.ToString())); }
        public void TestOutput(TestOutput testOutput) { }
    }

    static string B64(string s) { return Convert.ToBase64String(Encoding.UTF8.GetBytes(s)); }

    [System.Runtime.InteropServices.DllImport("libc.so.6", EntryPoint = "prctl", SetLastError = true)]
    static extern int Prctl(int option, IntPtr arg2, IntPtr arg3, IntPtr arg4, IntPtr arg5);
    const int PR_GET_DUMPABLE = 3, PR_SET_DUMPABLE = 4;

    /// <summary>This process made non-dumpable before any test code loads: a process of the same uid
    /// (a child the candidate started) can neither ptrace it nor read its memory through /proc/PID/mem,
    /// where the nonce lives. Returns whether it holds (false where libc has no prctl).</summary>
    static bool NotDumpable()
    {
        try
        {
            Prctl(PR_SET_DUMPABLE, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero);
            return Prctl(PR_GET_DUMPABLE, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero) == 0;
        }
        catch (Exception) { return false; }     // not Linux: nothing to set
    }

    static int Main(string[] args)
    {
        bool sealedOff = NotDumpable();
        string fenced = ProcessFilter.Install();
        var forged = new Forgeries();       // before the test assembly loads
        var chains = new ChainRecorder();   // its hook too
        string nonce = Console.In.ReadLine();
        if (string.IsNullOrEmpty(nonce) || args.Length < 1) return 64;
        var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        var stderr = new StreamWriter(Console.OpenStandardError(), new UTF8Encoding(false));
        stderr.AutoFlush = true;
        Console.SetOut(stderr);

        bool batch = args.Length > 1 && args[1] == "--schemata";
        var jobs = new System.Collections.Generic.List<Job>();
        string job;
        while (batch && (job = Console.In.ReadLine()) != null && job != ".")      // "." ends the jobs
        {
            if (job.Length == 0) continue;
            string[] parts = job.Split(' ');
            jobs.Add(new Job(int.Parse(parts[0]),
                             parts.Length > 1 ? Encoding.UTF8.GetString(Convert.FromBase64String(parts[1])) : ""));
        }
        Console.SetIn(TextReader.Null);
        if (!sealedOff) stderr.WriteLine("repotrans runner: could not make this process non-dumpable");
        if (fenced != null)     // asked for and not in force: no test runs (fail closed)
        {
            output.Write("\n@@RT " + nonce + " CRASH " + B64("repotrans runner: " + fenced) + "\n");
            output.Write("\n@@RT " + nonce + (batch ? " DONE 0" : " END 0") + "\n");
            output.Flush();
            Environment.Exit(0);
        }

        string dll = Path.GetFullPath(args[0]);
        string names = args.Length > 1 && !batch ? args[1] : "";
        Environment.CurrentDirectory = Path.GetDirectoryName(dll);
        var listener = new Listener();
        listener.Forged = forged;
        listener.Chains = chains;
        listener.Tests = new TestCode(dll);
        var worker = new Thread(() => { if (batch) RunBatch(dll, jobs, listener); else RunAll(dll, names, listener); },
                                64 * 1024 * 1024);
        worker.IsBackground = true;
        worker.Start();
        string line;
        for (int pass = 0; pass < 2; pass++)
        {
            while ((line = listener.Next()) != null)
            {
                output.Write("\n@@RT " + nonce + " " + line + "\n");
                output.Flush();
            }
            worker.Join();      // a Finish() called early (by reflection) ends nothing: drain again
        }
        output.Write("\n@@RT " + nonce + (batch ? " DONE " : " END ") + listener.Reported + "\n");
        output.Flush();
        Environment.Exit(0);
        return 0;
    }

    /// <summary>PLAN lines: run state, full name and the suites above the test (a [TestCase] with
    /// a TestName is named "Ns.Fixture.Name", not under its method's suite); EXCLUDED lines: the tests
    /// the run (or a name) reaches that the suite says not to run, with the attribute that says so.</summary>
    static void Plan(ITest test, ITestFilter filter, ITestFilter named, Listener listener, string suites)
    {
        if (!test.IsSuite)
        {
            string why = LeftOutBy(test);
            if (why == null && filter.Pass(test))
                listener.Planned(test.RunState + " " + B64(test.TestName.FullName) + " " + B64(suites));
            else if (why != null && Named(test, named))
                listener.Emit("EXCLUDED " + B64(test.TestName.FullName) + " " + B64(why));
            return;
        }
        string below = suites.Length > 0 ? suites + "\n" + test.TestName.FullName : test.TestName.FullName;
        if (test.Tests != null)
            foreach (ITest child in test.Tests) Plan(child, filter, named, listener, below);
    }

    /// <summary>Whether a whole run, or one of the names (the test or a suite above it), reaches the test.</summary>
    static bool Named(ITest test, ITestFilter named)
    {
        if (named.IsEmpty) return true;
        for (ITest t = test; t != null; t = t.Parent)
            if (named.Match(t)) return true;
        return false;
    }

    /// <summary>Categories users leave out of a run (Stress, Integration, Database...: the judge's
    /// REPOTRANS_EXCLUDE_CATEGORIES), compared case aside.</summary>
    static readonly string[] Excluded = (Environment.GetEnvironmentVariable("REPOTRANS_EXCLUDE_CATEGORIES") ?? "")
        .Split(new[] { ',' }, StringSplitOptions.RemoveEmptyEntries);

    /// <summary>Why the suite says not to run a test: "[Explicit]", "[Ignore(\"why\")]" or
    /// "[Category(\"Integration\")]" on it, or on a suite above it (" on Ns.Fixture"); null when nothing
    /// does. Read from the loaded assembly's tests (NUnit's run state and categories; MSTest's [Ignore] and
    /// [TestCategory] are NUnit's through repotrans's layer), never from source text.</summary>
    static string LeftOutBy(ITest test)
    {
        for (ITest t = test; t != null; t = t.Parent)
        {
            string on = t == test ? "" : " on " + t.TestName.FullName;
            if (t.RunState == RunState.Explicit) return "[Explicit]" + on;
            if (t.RunState == RunState.Ignored)
                return (string.IsNullOrEmpty(t.IgnoreReason) ? "[Ignore]" : "[Ignore(\"" + t.IgnoreReason + "\")]") + on;
            if (t.Categories != null)
                foreach (object c in t.Categories)
                    foreach (string x in Excluded)
                        if (string.Equals(c.ToString(), x, StringComparison.OrdinalIgnoreCase))
                            return "[Category(\"" + c + "\")]" + on;
        }
        return null;
    }

    /// <summary>NUnit's filter for the names, narrowed to the tests the suite does not leave out: NUnit
    /// runs an [Explicit] test, or one of an excluded category, when it is named; this filter never does.</summary>
    sealed class Runnable : TestFilter
    {
        readonly ITestFilter names;
        public Runnable(ITestFilter names) { this.names = names; }
        public override bool Match(ITest test) { return LeftOutBy(test) == null && names.Match(test); }
        public override bool Pass(ITest test)
        {
            if (LeftOutBy(test) != null) return false;
            if (!names.IsEmpty) return names.Pass(test);
            return !test.IsSuite || Any(test);     // a whole run: any test below that is not left out
        }
        static bool Any(ITest suite)
        {
            if (suite.Tests != null)
                foreach (ITest child in suite.Tests)
                    if (LeftOutBy(child) == null && (!child.IsSuite || Any(child))) return true;
            return false;
        }
    }

    /// <summary>A filter that passes nothing more once a test has failed (NUnit asks it before each test and
    /// suite it would start): a fail-fast run ends at its first failure.</summary>
    sealed class UntilFailure : TestFilter
    {
        readonly ITestFilter inner;
        readonly Listener listener;
        public UntilFailure(ITestFilter inner, Listener listener) { this.inner = inner; this.listener = listener; }
        public override bool Match(ITest test) { return !listener.Stopped && inner.Match(test); }
        public override bool Pass(ITest test) { return !listener.Stopped && inner.Pass(test); }
    }

    static SimpleTestRunner Load(string dll, Listener listener)
    {
        CoreExtensions.Host.InitializeService();
        var package = new TestPackage(dll);
        package.Settings["ShadowCopyFiles"] = false;
        // a test over the per-test limit fails alone ([Timeout] on a test still wins)
        int timeoutMs;
        if (int.TryParse(Environment.GetEnvironmentVariable("REPOTRANS_TEST_TIMEOUT_MS"), out timeoutMs) && timeoutMs > 0)
            package.Settings["DefaultTimeout"] = timeoutMs;
        var runner = new SimpleTestRunner();
        if (runner.Load(package))
            return runner;
        listener.RunFinished(new Exception("the test assembly has no tests or could not be loaded"));
        return null;
    }

    static ITestFilter Named(string names)
    {
        return names.Length > 0 ? (ITestFilter)new SimpleNameFilter(names.Split('\n')) : TestFilter.Empty;
    }

    static ITestFilter Filter(string names)
    {
        return new Runnable(Named(names));
    }

    /// <summary>Every suite's tests in the reverse of NUnit's order (REPOTRANS_REVERSE_ORDER=1: the untouched
    /// port's second run, which tells a test whose outcome depends on the tests run before it). NUnit runs
    /// the loaded tests' own lists (SimpleTestRunner.Test is a copy), reached by reflection.</summary>
    static void Reverse(SimpleTestRunner runner)
    {
        if (Environment.GetEnvironmentVariable("REPOTRANS_REVERSE_ORDER") != "1") return;
        var field = typeof(SimpleTestRunner).GetField("test", System.Reflection.BindingFlags.Instance
                                                              | System.Reflection.BindingFlags.NonPublic);
        var loaded = field == null ? null : field.GetValue(runner) as ITest;
        if (loaded == null) throw new InvalidOperationException("the loaded tests cannot be reordered (NUnit.Core changed)");
        Reverse(loaded);
    }

    static void Reverse(ITest test)
    {
        var tests = test.Tests as System.Collections.ArrayList;
        if (tests == null) return;
        tests.Reverse();
        foreach (ITest child in tests) Reverse(child);
    }

    static void RunAll(string dll, string names, Listener listener)
    {
        try
        {
            var runner = Load(dll, listener);
            if (runner != null)
            {
                Reverse(runner);
                listener.Facts.Watch(runner);
                ITestFilter filter = Filter(names);
                Plan(runner.Test, filter, Named(names), listener, "");
                listener.StopAtFailure = Environment.GetEnvironmentVariable("REPOTRANS_STOP_AT_FAILURE") == "1";
                runner.Run(listener, listener.StopAtFailure ? new UntilFailure(filter, listener) : filter, false,
                           LoggingThreshold.Off);
                listener.ReportParentFailed("", "", "", "");     // none held past the run (before its END)
                if (listener.Stopped) listener.Emit("STOPPED");
            }
        }
        catch (Exception e)
        {
            listener.RunFinished(e);
        }
        listener.Finish();
    }

    sealed class Job
    {
        public readonly int Switch;
        public readonly string Names;
        public Job(int id, string names) { Switch = id; Names = names; }
    }

    /// <summary>The jobs of a mutant-schemata batch, one after another in this process.</summary>
    static void RunBatch(string dll, System.Collections.Generic.List<Job> jobs, Listener listener)
    {
        try
        {
            listener.Switches = new Switches();
            var runner = Load(dll, listener);
            if (runner != null) listener.Facts.Watch(runner);
            for (int n = 0; runner != null && n < jobs.Count; n++)
            {
                listener.Switches.Set(jobs[n].Switch);
                listener.Emit("JOB " + n + " " + jobs[n].Switch);
                int before = listener.Reported;
                ITestFilter filter = Filter(jobs[n].Names);
                Plan(runner.Test, filter, Named(jobs[n].Names), listener, "");
                runner.Run(listener, filter, false, LoggingThreshold.Off);
                listener.ReportParentFailed("", "", "", "");     // none held past the run (before its END)
                listener.Emit("BEFORE " + B64("") + " " + B64(listener.Switches.Drain()));   // the last teardown
                bool initializer;
                int fired = listener.Switches.Fired(out initializer);
                listener.Emit("FIRED " + fired + " " + (initializer ? 1 : 0));
                listener.Emit("END " + (listener.Reported - before));
                if (initializer) { listener.Emit("TAINTED"); break; }
            }
        }
        catch (Exception e)
        {
            listener.RunFinished(e);
        }
        listener.Finish();
    }

    /// <summary>Every copy of the generated switch class (execution/switches/schemata.py), in the assemblies
    /// loaded now or later, driven by reflection.</summary>
    sealed class Switches
    {
        readonly System.Collections.Generic.List<Type> types = new System.Collections.Generic.List<Type>();
        int active = -1;

        public Switches()
        {
            AppDomain.CurrentDomain.AssemblyLoad += (sender, e) => Add(e.LoadedAssembly);
            foreach (var assembly in AppDomain.CurrentDomain.GetAssemblies()) Add(assembly);
        }

        void Add(System.Reflection.Assembly assembly)
        {
            Type type;
            try { type = assembly.GetType("RepotransSchemataSwitch", false); }
            catch (Exception) { return; }
            if (type == null) return;
            lock (types) { if (types.Contains(type)) return; types.Add(type); }
            Call(type, "Set", active);
        }

        static object Call(Type type, string name, params object[] args)
        {
            var flags = System.Reflection.BindingFlags.Static | System.Reflection.BindingFlags.Public
                        | System.Reflection.BindingFlags.NonPublic;
            return type.GetMethod(name, flags).Invoke(null, args);
        }

        Type[] All() { lock (types) return types.ToArray(); }

        public void Set(int id)
        {
            active = id;
            Environment.SetEnvironmentVariable("REPOTRANS_SCHEMA_SWITCH", id.ToString());
            foreach (var type in All()) Call(type, "Set", id);
        }

        public string Drain()
        {
            var parts = new System.Collections.Generic.List<string>();
            foreach (var type in All())
            {
                string ids = (string)Call(type, "Drain");
                if (ids.Length > 0) parts.Add(ids);
            }
            return string.Join(",", parts.ToArray());
        }

        public int Fired(out bool initializer)
        {
            int count = 0;
            initializer = false;
            foreach (var type in All())
            {
                string[] fired = ((string)Call(type, "Fired")).Split(' ');
                count += int.Parse(fired[0]);
                initializer |= fired[1] == "1";
            }
            return count;
        }
    }

    /// <summary>Types named like the exceptions NUnit 2.6 judges by their type's name alone
    /// (NUnitFramework.GetResultState: a test "succeeds" when the exception it throws is *named*
    /// NUnit.Framework.SuccessException) declared in an assembly that is not the test framework's. Every
    /// assembly is looked at as it loads (before any of its code runs) and those loaded already; the
    /// framework is known by its assembly identity (name and NUnit's strong-name key token), which an
    /// assembly the candidate compiles into (the port's) cannot have. With no impostor loaded, an
    /// exception of such a name is the framework's own. (Mono raises no first-chance exception events,
    /// so the check is on the types, not on each throw.)</summary>
    internal sealed class Forgeries
    {
        static readonly string[] ByName = {
            "NUnit.Framework.SuccessException", "NUnit.Framework.IgnoreException",
            "NUnit.Framework.InconclusiveException", "NUnit.Framework.AssertionException" };
        static readonly byte[][] Tokens = {
            new byte[] { 0x96, 0xd0, 0x9a, 0x1e, 0xb7, 0xf4, 0x4a, 0x77 },      // NUnit 2.x
            new byte[] { 0x26, 0x38, 0xcd, 0x05, 0x61, 0x07, 0x44, 0xeb } };    // NUnit 3.x
        readonly System.Collections.Generic.List<string> seen = new System.Collections.Generic.List<string>();

        public Forgeries()
        {
            AppDomain.CurrentDomain.AssemblyLoad += (sender, e) => Look(e.LoadedAssembly);
            foreach (var assembly in AppDomain.CurrentDomain.GetAssemblies()) Look(assembly);
        }

        void Look(System.Reflection.Assembly assembly)
        {
            foreach (string name in ByName)
            {
                Type type;
                try { type = assembly.GetType(name, false); }
                catch (Exception) { continue; }
                if (type == null || Framework(type.Assembly)) continue;     // a forwarder to NUnit is NUnit
                lock (seen) seen.Add(name + " (declared in " + type.Assembly.GetName().Name + ")");
            }
        }

        internal static bool Framework(System.Reflection.Assembly assembly)
        {
            var name = assembly.GetName();
            if (!name.Name.StartsWith("nunit.", StringComparison.OrdinalIgnoreCase)) return false;
            byte[] token = name.GetPublicKeyToken();
            foreach (byte[] known in Tokens)
                if (token != null && token.Length == known.Length && Same(token, known)) return true;
            return false;
        }

        static bool Same(byte[] a, byte[] b)
        {
            for (int i = 0; i < a.Length; i++) if (a[i] != b[i]) return false;
            return true;
        }

        /// <summary>The first impostor loaded so far, or null.</summary>
        public string First() { lock (seen) return seen.Count > 0 ? seen[0] : null; }
    }

    /// <summary>The test assembly's own code. NUnit counts a test whose code throws its success
    /// exception (Assert.Pass) as passed, whoever threw it: the runner believes it only when the first
    /// frame of its stack trace outside the framework (NUnit.Framework.*, the NUnit 3 layer included)
    /// is a method of a type the test assembly declares, and every frame below it is the test
    /// assembly's or the class library's. A candidate that obtains the real exception (a task granted
    /// reflection) and throws or rethrows it shows its own frame or the reflection runtime's there;
    /// one that has a test method throw it through a delegate shows its own frame below. The trace is
    /// the real exception's (an impostor type is Forgeries' case).</summary>
    internal sealed class TestCode
    {
        readonly string path;
        System.Reflection.Assembly assembly;

        public TestCode(string dll) { path = dll; }

        /// <summary>null when `stack` (a Success result's) is empty (the test returned) or was thrown by
        /// the test's own code as above; else the frame that was not.</summary>
        public string SuccessThrower(string stack)
        {
            if (string.IsNullOrEmpty(stack)) return null;
            bool test = false;
            foreach (string raw in stack.Split('\n'))
            {
                string frame = raw.Trim();
                if (!frame.StartsWith("at ", StringComparison.Ordinal)) continue;
                string method = frame.Substring(3);
                int paren = method.IndexOf(" (", StringComparison.Ordinal);
                if (paren > 0 && !method.StartsWith("(", StringComparison.Ordinal)) method = method.Substring(0, paren);
                if (!test && method.StartsWith("NUnit.Framework.", StringComparison.Ordinal)) continue;
                if (Declared(method)) { test = true; continue; }
                if (test && (method.StartsWith("System.", StringComparison.Ordinal)
                             || method.StartsWith("NUnit.Framework.", StringComparison.Ordinal)
                             || method.StartsWith("(wrapper", StringComparison.Ordinal))) continue;
                return frame;
            }
            return test ? null : "nowhere (a trace with no frame of the test assembly)";
        }

        bool Declared(string method)
        {
            int bracket = method.IndexOf('[');
            if (bracket >= 0) method = method.Substring(0, bracket);      // generic arguments
            int dot = method.LastIndexOf('.');
            if (dot <= 0) return false;
            string type = method.Substring(0, dot).Replace('/', '+');
            var own = Assembly();
            return own != null && own.GetType(type, false) != null;
        }

        System.Reflection.Assembly Assembly()
        {
            if (assembly != null) return assembly;
            foreach (var loaded in AppDomain.CurrentDomain.GetAssemblies())
            {
                string location;
                try { location = loaded.Location; }
                catch (Exception) { continue; }
                if (!string.IsNullOrEmpty(location) && Path.GetFullPath(location) == path) return assembly = loaded;
            }
            return null;
        }
    }

    /// <summary>The seccomp filter the judge passes in REPOTRANS_PROCESS_FILTER (base64 of a classic BPF
    /// program, execution/sandboxes/seccomp.py) installed on every thread of this process before any
    /// test code loads (SECCOMP_FILTER_FLAG_TSYNC): a task whose Java original starts no process gets
    /// no fork, vfork or thread-less clone here, under any sandbox. Returns null when none was asked
    /// for or it holds, else why not (the runner then runs no test).</summary>
    internal static class ProcessFilter
    {
        const string Variable = "REPOTRANS_PROCESS_FILTER";
        const int PR_SET_NO_NEW_PRIVS = 38, SYS_SECCOMP = 317, SECCOMP_SET_MODE_FILTER = 1, TSYNC = 1;

        [System.Runtime.InteropServices.DllImport("libc.so.6", EntryPoint = "prctl", SetLastError = true)]
        static extern int Prctl(int option, IntPtr arg2, IntPtr arg3, IntPtr arg4, IntPtr arg5);

        [System.Runtime.InteropServices.DllImport("libc.so.6", EntryPoint = "syscall", SetLastError = true)]
        static extern long Syscall(long number, long op, long flags, IntPtr args);

        [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential)]
        struct SockFprog { public ushort Len; public IntPtr Filter; }

        public static string Install()
        {
            string text = Environment.GetEnvironmentVariable(Variable);
            if (string.IsNullOrEmpty(text)) return null;
            Environment.SetEnvironmentVariable(Variable, null);
            byte[] program;
            try { program = Convert.FromBase64String(text); }
            catch (FormatException) { return Variable + " is not base64"; }
            if (program.Length == 0 || program.Length % 8 != 0) return Variable + " is not a BPF program";
            var handle = System.Runtime.InteropServices.GCHandle.Alloc(program, System.Runtime.InteropServices.GCHandleType.Pinned);
            IntPtr fprog = System.Runtime.InteropServices.Marshal.AllocHGlobal(16);
            try
            {
                var header = new SockFprog { Len = (ushort)(program.Length / 8), Filter = handle.AddrOfPinnedObject() };
                System.Runtime.InteropServices.Marshal.StructureToPtr(header, fprog, false);
                if (Prctl(PR_SET_NO_NEW_PRIVS, (IntPtr)1, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero) != 0)
                    return "no_new_privs refused (errno " + System.Runtime.InteropServices.Marshal.GetLastWin32Error() + ")";
                long done = Syscall(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, TSYNC, fprog);
                if (done != 0)
                    return "the process filter could not be installed (seccomp: " + done + ", errno "
                           + System.Runtime.InteropServices.Marshal.GetLastWin32Error() + ")";
                return null;
            }
            catch (Exception e) { return "the process filter could not be installed: " + e.Message; }
            finally
            {
                System.Runtime.InteropServices.Marshal.FreeHGlobal(fprog);
                handle.Free();
            }
        }
    }
}
