// Hand-written C# for the non-method parts of JdkIdioms.java; the translated methods replace the marker.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;

public class JdkIdioms
{
    //@METHODS@
}
