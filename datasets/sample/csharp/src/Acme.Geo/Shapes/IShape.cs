namespace Acme.Geo.Shapes
{
    /// <summary>A closed plane figure.</summary>
    public interface IShape
    {
        string Name { get; }

        double Area();

        double Perimeter();

        BoundingBox GetBoundingBox();

        bool Contains(Point2D point);
    }
}
