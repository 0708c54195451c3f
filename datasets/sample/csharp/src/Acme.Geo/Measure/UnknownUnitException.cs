namespace Acme.Geo.Measure
{
    /// <summary>Raised when a unit symbol or alias is not known.</summary>
    public class UnknownUnitException : GeometryException
    {
        private readonly string symbol;

        public UnknownUnitException(string symbol)
            : base("unknown unit: '" + symbol + "'")
        {
            this.symbol = symbol;
        }

        public string Symbol
        {
            get { return symbol; }
        }
    }
}
