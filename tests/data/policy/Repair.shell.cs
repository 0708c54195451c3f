// Target class for the repair tests; the broken candidate members replace the marker.
using System;

public class Shape
{
    private double _radius;

    public Shape(double radius) { _radius = radius; }

    public double Radius { get { return _radius; } }

    public double Area() { return 3 * _radius * _radius; }

    public int Scale(int factor) { return (int)(_radius * factor); }

//@CANDIDATE@

    public static void Main()
    {
        var s = new Shape(2);
        Console.WriteLine(Missing());
        Console.WriteLine(s.Doubled());
        Console.WriteLine(Len("abcd"));
        Console.WriteLine(Measure(s));
        Console.WriteLine(Narrow(21));
        Console.WriteLine(Grow(5));
        Console.WriteLine(Parse("17"));
        Console.WriteLine(s.ScaleBoth(3));
        Console.WriteLine(s.R());
    }
}
