namespace Acme.Geo.Measure
{
    /// <summary>Units of length; symbols and sizes live in <see cref="LengthUnitExtensions"/>.</summary>
    public enum LengthUnit
    {
        Millimeter,
        Centimeter,
        Meter,
        Kilometer,
        Inch,
        Foot,
        Mile
    }
}
