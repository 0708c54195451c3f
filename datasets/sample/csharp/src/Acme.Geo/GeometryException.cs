using System;

namespace Acme.Geo
{
    /// <summary>Raised when a geometric construction or parse is invalid.</summary>
    public class GeometryException : Exception
    {
        public GeometryException(string message)
            : base(message)
        {
        }

        public GeometryException(string message, Exception innerException)
            : base(message, innerException)
        {
        }
    }
}
