// repotrans's runner, its record of the call chains that reach a placeholder (compiled with nunit_runner.cs).
//
// Each placeholder of the library is compiled guarded (execution/toolchains/guards.py): its throw first calls
// RepotransPlaceholderGuard.Reached, which calls the hook this class put in the application domain before the
// test assembly loaded. The hook reads the runtime's own stack at that moment (every frame, through delegates,
// iterators, lambdas and static constructors) and keeps it here, in the runner, under the test running then
// (or the suite whose set-up runs). Nothing of the candidate's reaches this record: the guard passes no data,
// the frames are the runtime's, and the record leaves the process on the runner's own tagged output:
//
//   CHAIN <name> <flag> <frames>   (name: a test, or a suite for its set-up/tear-down; frames base64, one a line,
//                                   innermost first, the member that called the guard first)
//   flag 1: a complete chain, on the thread NUnit runs the test on (it runs down to NUnit's own frames: the
//           first of them, found by its assembly, ends the chain);
//   flag 0: reached on another thread (a task, a thread, a finalizer): who led there cannot be told;
//   flag 2: more distinct chains than kept (the record of that name is cut, frames empty).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Text;

partial class RepotransRunner
{
    internal sealed class ChainRecorder
    {
        const string Key = "repotrans.placeholder-guard";
        const string GuardType = "RepotransPlaceholderGuard";
        const int MaxChains = 100;          // distinct chains kept under one name; more: cut (flag 2)
        readonly object gate = new object();
        readonly System.Reflection.Assembly core = typeof(NUnit.Core.TestMethod).Assembly;
        readonly List<string> open = new List<string>();       // running suites then the running test, outermost first
        readonly Dictionary<string, List<string>> chains = new Dictionary<string, List<string>>();
        readonly HashSet<string> cut = new HashSet<string>();

        /// <summary>The hook, in place before any test code loads.</summary>
        public ChainRecorder() { AppDomain.CurrentDomain.SetData(Key, new Action(Reached)); }

        public void Enter(string name) { lock (gate) open.Add(name); }

        /// <summary>The CHAIN lines of `name` (a test or a suite that ends), its record then dropped.</summary>
        public List<string> Leave(string name)
        {
            var lines = new List<string>();
            lock (gate)
            {
                open.Remove(name);
                List<string> found;
                if (chains.TryGetValue(name, out found))
                {
                    foreach (string chain in found) lines.Add("CHAIN " + B64(name) + " " + chain);
                    chains.Remove(name);
                }
                if (cut.Remove(name)) lines.Add("CHAIN " + B64(name) + " 2 " + B64(""));
            }
            return lines;
        }

        void Reached()
        {
            try { Record(new StackTrace(1, true).GetFrames()); }
            catch (Exception) { lock (gate) if (open.Count > 0) cut.Add(open[open.Count - 1]); }    // unreadable: cut
        }

        void Record(StackFrame[] frames)
        {
            if (frames == null) return;
            int guard = -1;
            for (int i = 0; i < frames.Length && guard < 0; i++)
            {
                var method = frames[i].GetMethod();
                if (method != null && method.Name == "Reached" && method.DeclaringType != null
                    && method.DeclaringType.FullName == GuardType)
                    guard = i;
            }
            if (guard < 0 || guard + 1 >= frames.Length) return;      // not a guard's call: nothing reached
            var text = new StringBuilder();
            bool complete = false;
            for (int i = guard + 1; i < frames.Length; i++)
            {
                var method = frames[i].GetMethod();
                if (method == null) continue;
                text.Append(Describe(frames[i], method)).Append('\n');
                if (method.DeclaringType != null && method.DeclaringType.Assembly == core)
                {   // the test framework called the test's code here: below are NUnit's and this runner's frames
                    complete = true;
                    break;
                }
            }
            string chain = (complete ? "1 " : "0 ") + B64(text.ToString());
            lock (gate)
            {
                string name = open.Count > 0 ? open[open.Count - 1] : "";
                List<string> kept;
                if (!chains.TryGetValue(name, out kept)) chains[name] = kept = new List<string>();
                if (kept.Contains(chain)) return;
                if (kept.Count >= MaxChains) { cut.Add(name); return; }
                kept.Add(chain);
            }
        }

        /// <summary>'Ns.Outer`1+Inner.Method (System.Int32 x) at /path/File.cs:12', as mono prints a frame.</summary>
        static string Describe(StackFrame frame, System.Reflection.MethodBase method)
        {
            Type type = method.DeclaringType;
            if (type != null && type.IsGenericType && !type.IsGenericTypeDefinition) type = type.GetGenericTypeDefinition();
            var text = new StringBuilder();
            text.Append(type == null ? "" : (type.FullName ?? type.Name) + ".").Append(method.Name).Append(" (");
            var parameters = method.GetParameters();
            for (int i = 0; i < parameters.Length; i++)
            {
                Type p = parameters[i].ParameterType;
                text.Append(i > 0 ? ", " : "").Append(p.FullName ?? p.Name).Append(' ').Append(parameters[i].Name);
            }
            text.Append(')');
            string file = frame.GetFileName();
            if (!string.IsNullOrEmpty(file)) text.Append(" at ").Append(file).Append(':').Append(frame.GetFileLineNumber());
            return text.ToString();
        }
    }
}
