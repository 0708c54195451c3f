// repotrans's own NUnit 2.6 runner: runs one test assembly in this process through NUnit.Core's
// SimpleTestRunner (no remoting channel, no agent, no result file) and reports each test on the
// standard output it was started with, every line tagged with a nonce read from stdin before any
// test code loads. Test code writes to stderr (Console.Out is redirected); a candidate cannot know
// the nonce, so it cannot forge a line, and a run that ends without the END line is no verdict.
//
// usage: mono runner.exe TEST.dll [Ns.Fixture,Ns.Fixture.Method,...]     (stdin: one nonce line)
// stdout: PLAN <declared run state> <name> (each test the filter selects, before any runs)
//         | START <count> | TEST <result state> <name> <message> <stack>
//         | CRASH <text> | UNHANDLED <text> | END <count>
//         (texts base64), each line "\n@@RT <nonce> ..." 
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

        void Emit(string line) { lock (lines) { lines.Enqueue(line); Monitor.Pulse(lines); } }
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
        public void TestStarted(TestName testName) { }
        public void TestFinished(TestResult r)
        {
            Interlocked.Increment(ref Reported);
            Emit("TEST " + r.ResultState + " " + B64(r.FullName) + " "
                 + B64(r.Message ?? "") + " " + B64(r.StackTrace ?? ""));
        }
        public void SuiteStarted(TestName testName) { }
        public void SuiteFinished(TestResult r) { }
        public void UnhandledException(Exception exception) { Emit("UNHANDLED " + B64(exception.ToString())); }
        public void TestOutput(TestOutput testOutput) { }
    }

    static string B64(string s) { return Convert.ToBase64String(Encoding.UTF8.GetBytes(s)); }

    static int Main(string[] args)
    {
        string nonce = Console.In.ReadLine();
        if (string.IsNullOrEmpty(nonce) || args.Length < 1) return 64;
        var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        var stderr = new StreamWriter(Console.OpenStandardError(), new UTF8Encoding(false));
        stderr.AutoFlush = true;
        Console.SetOut(stderr);
        Console.SetIn(TextReader.Null);

        string dll = Path.GetFullPath(args[0]);
        string names = args.Length > 1 ? args[1] : "";
        Environment.CurrentDirectory = Path.GetDirectoryName(dll);
        var listener = new Listener();
        var worker = new Thread(() => RunAll(dll, names, listener), 64 * 1024 * 1024);
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
        output.Write("\n@@RT " + nonce + " END " + listener.Reported + "\n");
        output.Flush();
        Environment.Exit(0);
        return 0;
    }

    /// <summary>PLAN lines: run state, full name and the suites above the test (a [TestCase] with
    /// a TestName is named "Ns.Fixture.Name", not under its method's suite).</summary>
    static void Plan(ITest test, ITestFilter filter, Listener listener, string suites)
    {
        if (!test.IsSuite)
        {
            if (filter.Pass(test))
                listener.Planned(test.RunState + " " + B64(test.TestName.FullName) + " " + B64(suites));
            return;
        }
        string below = suites.Length > 0 ? suites + "\n" + test.TestName.FullName : test.TestName.FullName;
        if (test.Tests != null)
            foreach (ITest child in test.Tests) Plan(child, filter, listener, below);
    }

    static void RunAll(string dll, string names, Listener listener)
    {
        try
        {
            CoreExtensions.Host.InitializeService();
            var package = new TestPackage(dll);
            package.Settings["ShadowCopyFiles"] = false;
            // a test over the per-test limit fails alone ([Timeout] on a test still wins)
            int timeoutMs;
            if (int.TryParse(Environment.GetEnvironmentVariable("REPOTRANS_TEST_TIMEOUT_MS"), out timeoutMs) && timeoutMs > 0)
                package.Settings["DefaultTimeout"] = timeoutMs;
            var runner = new SimpleTestRunner();
            if (!runner.Load(package))
                listener.RunFinished(new Exception("the test assembly has no tests or could not be loaded"));
            else
            {
                ITestFilter filter = names.Length > 0 ? (ITestFilter)new SimpleNameFilter(names.Split('\n')) : TestFilter.Empty;
                // categories users leave out of a run (Stress, LongRunning...), also when a fixture is named
                string excluded = Environment.GetEnvironmentVariable("REPOTRANS_EXCLUDE_CATEGORIES") ?? "";
                if (excluded.Length > 0)
                    filter = new AndFilter(filter, new NotFilter(new CategoryFilter(excluded.Split(','))));
                Plan(runner.Test, filter, listener, "");
                runner.Run(listener, filter, false, LoggingThreshold.Off);
            }
        }
        catch (Exception e)
        {
            listener.RunFinished(e);
        }
        listener.Finish();
    }
}
