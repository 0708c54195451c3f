package org.acme.geometry.shapes;

import java.util.ArrayList;
import java.util.List;

import org.acme.geometry.BoundingBox;
import org.acme.geometry.GeometryMath;
import org.acme.geometry.Point2D;
import org.acme.util.Preconditions;

/**
 * Axis-aligned rectangle given by its lower-left corner and its size.
 */
public class Rectangle extends AbstractShape {

    private final Point2D corner;
    private final double width;
    private final double height;

    public Rectangle(Point2D corner, double width, double height) {
        this("rectangle", corner, width, height);
    }

    protected Rectangle(String name, Point2D corner, double width, double height) {
        super(name);
        this.corner = Preconditions.checkNotNull(corner, "corner");
        this.width = Preconditions.checkPositive(width, "width");
        this.height = Preconditions.checkPositive(height, "height");
    }

    /** Rectangle spanned by two opposite corners given in any order. */
    public static Rectangle fromCorners(Point2D a, Point2D b) {
        double minX = Math.min(a.getX(), b.getX());
        double minY = Math.min(a.getY(), b.getY());
        return new Rectangle(new Point2D(minX, minY), Math.abs(a.getX() - b.getX()), Math.abs(a.getY() - b.getY()));
    }

    public Point2D getCorner() {
        return corner;
    }

    public double getWidth() {
        return width;
    }

    public double getHeight() {
        return height;
    }

    public boolean isSquare() {
        return GeometryMath.almostEqual(width, height);
    }

    @Override
    public double area() {
        return width * height;
    }

    @Override
    public double perimeter() {
        return 2.0 * (width + height);
    }

    @Override
    public BoundingBox boundingBox() {
        return new BoundingBox(corner.getX(), corner.getY(), corner.getX() + width, corner.getY() + height);
    }

    @Override
    protected boolean containsPoint(Point2D point) {
        return true;
    }

    /** The four corners counter-clockwise, starting at the lower-left one. */
    public List<Point2D> corners() {
        List<Point2D> result = new ArrayList<>(4);
        result.add(corner);
        result.add(corner.translate(width, 0.0));
        result.add(corner.translate(width, height));
        result.add(corner.translate(0.0, height));
        return result;
    }

    public double diagonal() {
        return Math.sqrt(width * width + height * height);
    }
}
