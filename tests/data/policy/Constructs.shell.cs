// Hand-written C# for the non-method parts of Constructs.java; the translated methods replace the marker.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;

public class Constructs
{
    enum Color { RED, GREEN, BLUE }

    //@METHODS@
}

class Res : IDisposable
{
    private readonly string name;
    private readonly StringBuilder log;

    public Res(string name, StringBuilder log) { this.name = name; this.log = log; log.Append("open ").Append(name).Append(' '); }

    public void Dispose() { log.Append("close ").Append(name).Append(' '); }
}
