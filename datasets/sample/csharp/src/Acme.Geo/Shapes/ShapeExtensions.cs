using Acme.Common;

namespace Acme.Geo.Shapes
{
    /// <summary>Members that the Java interface declares as default methods.</summary>
    public static class ShapeExtensions
    {
        /// <summary>One-line summary such as "circle: area 3.14, perimeter 6.28".</summary>
        public static string Describe(this IShape shape)
        {
            Preconditions.CheckNotNull(shape, "shape");
            return shape.Name + ": area " + StringUtils.FormatNumber(shape.Area(), 2)
                + ", perimeter " + StringUtils.FormatNumber(shape.Perimeter(), 2);
        }
    }
}
