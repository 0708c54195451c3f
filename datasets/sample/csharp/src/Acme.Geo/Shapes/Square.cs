namespace Acme.Geo.Shapes
{
    public sealed class Square : Rectangle
    {
        public Square(Point2D corner, double side)
            : base("square", corner, side, side)
        {
        }

        public double Side
        {
            get { return Width; }
        }

        public Square WithSide(double side)
        {
            return new Square(Corner, side);
        }
    }
}
