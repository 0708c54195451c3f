    public static string Missing()
    {
        var sb = new StringBuilder();
        sb.Append("ok");
        return sb.ToString();
    }

    public double Doubled()
    {
        return radius * 2;
    }

    public static int Len(string t)
    {
        return t.length;
    }

    public static double Measure(Shape s)
    {
        return s.area() + s.GetRadius();
    }

    public static int Narrow(long big)
    {
        int x = big * 2;
        return x;
    }

    public static int Grow(long step)
    {
        int total = 1;
        total += step;
        return total;
    }

    public static int Parse(string t)
    {
        int y = t;
        return y;
    }

    public int ScaleBoth(int a)
    {
        return Scale(a, 2);
    }

    public double R()
    {
        return Radius();
    }
