// repotrans's own NUnit 2.6 runner: runs one test assembly in this process through NUnit.Core's
// SimpleTestRunner (no remoting channel, no agent, no result file) and reports each test on the
// standard output it was started with, every line tagged with a nonce read from stdin before any
// test code loads. Test code writes to stderr (Console.Out is redirected); a candidate cannot know
// the nonce, so it cannot forge a line, and a run that ends without the END line is no verdict.
//
// usage: mono runner.exe TEST.dll [Ns.Fixture,Ns.Fixture.Method,...]     (stdin: one nonce line)
// stdout: PLAN <declared run state> <name> (each test the filter selects, before any runs)
//         | EXCLUDED <name> <categories> (each test the names select but an excluded category leaves out)
//         | START <count> | TEST <result state> <name> <message> <stack>
//         | CRASH <text> | UNHANDLED <text> | END <count>
//         (texts base64), each line "\n@@RT <nonce> ..."
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

class RepotransRunner
{
    // The listener only queues lines; the main thread, which alone holds the nonce (a local never
    // captured by a closure), tags and writes them.
    sealed class Listener : EventListener
    {
        readonly System.Collections.Generic.Queue<string> lines = new System.Collections.Generic.Queue<string>();
        bool finished;
        public int Reported;
        public Switches Switches;           // batches only: the guards each test reached

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
            // guards reached between two tests (a fixture's setup, the previous one's teardown)
            if (Switches != null) Emit("BEFORE " + B64(testName.FullName) + " " + B64(Switches.Drain()));
        }
        public void TestFinished(TestResult r)
        {
            Interlocked.Increment(ref Reported);
            Emit("TEST " + r.ResultState + " " + B64(r.FullName) + " "
                 + B64(r.Message ?? "") + " " + B64(r.StackTrace ?? ""));
            if (Switches != null) Emit("HITS " + B64(r.FullName) + " " + B64(Switches.Drain()));
        }
        public void SuiteStarted(TestName testName) { }
        public void SuiteFinished(TestResult r) { }
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

        string dll = Path.GetFullPath(args[0]);
        string names = args.Length > 1 && !batch ? args[1] : "";
        Environment.CurrentDirectory = Path.GetDirectoryName(dll);
        var listener = new Listener();
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
    /// a TestName is named "Ns.Fixture.Name", not under its method's suite).</summary>
    static void Plan(ITest test, ITestFilter filter, ITestFilter named, Listener listener, string suites)
    {
        if (!test.IsSuite)
        {
            if (filter.Pass(test))
                listener.Planned(test.RunState + " " + B64(test.TestName.FullName) + " " + B64(suites));
            else if (named.Pass(test))
                listener.Emit("EXCLUDED " + B64(test.TestName.FullName) + " " + B64(Categories(test)));
            return;
        }
        string below = suites.Length > 0 ? suites + "\n" + test.TestName.FullName : test.TestName.FullName;
        if (test.Tests != null)
            foreach (ITest child in test.Tests) Plan(child, filter, named, listener, below);
    }

    /// <summary>The categories of a test and of the suites above it (an EXCLUDED line names them).</summary>
    static string Categories(ITest test)
    {
        var found = new System.Collections.Generic.List<string>();
        for (ITest t = test; t != null; t = t.Parent)
            if (t.Categories != null)
                foreach (object c in t.Categories)
                    if (!found.Contains(c.ToString())) found.Add(c.ToString());
        return string.Join(",", found.ToArray());
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
        ITestFilter filter = Named(names);
        // categories users leave out of a run (Stress, LongRunning...), also when a fixture is named
        string excluded = Environment.GetEnvironmentVariable("REPOTRANS_EXCLUDE_CATEGORIES") ?? "";
        if (excluded.Length > 0)
            filter = new AndFilter(filter, new NotFilter(new CategoryFilter(excluded.Split(','))));
        return filter;
    }

    static void RunAll(string dll, string names, Listener listener)
    {
        try
        {
            var runner = Load(dll, listener);
            if (runner != null)
            {
                ITestFilter filter = Filter(names);
                Plan(runner.Test, filter, Named(names), listener, "");
                runner.Run(listener, filter, false, LoggingThreshold.Off);
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
            for (int n = 0; runner != null && n < jobs.Count; n++)
            {
                listener.Switches.Set(jobs[n].Switch);
                listener.Emit("JOB " + n + " " + jobs[n].Switch);
                int before = listener.Reported;
                ITestFilter filter = Filter(jobs[n].Names);
                Plan(runner.Test, filter, Named(jobs[n].Names), listener, "");
                runner.Run(listener, filter, false, LoggingThreshold.Off);
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
}
