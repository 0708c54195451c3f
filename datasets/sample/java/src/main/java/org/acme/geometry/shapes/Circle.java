package org.acme.geometry.shapes;

import org.acme.geometry.BoundingBox;
import org.acme.geometry.Point2D;
import org.acme.util.Preconditions;

public final class Circle extends AbstractShape {

    private final Point2D center;
    private final double radius;

    public Circle(Point2D center, double radius) {
        super("circle");
        this.center = Preconditions.checkNotNull(center, "center");
        this.radius = Preconditions.checkPositive(radius, "radius");
    }

    public Circle(double radius) {
        this(Point2D.ORIGIN, radius);
    }

    public Point2D getCenter() {
        return center;
    }

    public double getRadius() {
        return radius;
    }

    public double getDiameter() {
        return 2.0 * radius;
    }

    @Override
    public double area() {
        return Math.PI * radius * radius;
    }

    @Override
    public double perimeter() {
        return 2.0 * Math.PI * radius;
    }

    @Override
    public BoundingBox boundingBox() {
        return new BoundingBox(center.getX() - radius, center.getY() - radius,
                center.getX() + radius, center.getY() + radius);
    }

    @Override
    protected boolean containsPoint(Point2D point) {
        return center.distanceTo(point) <= radius;
    }

    public Circle scale(double factor) {
        return new Circle(center, radius * Preconditions.checkPositive(factor, "factor"));
    }

    /** True when the two discs overlap or touch. */
    public boolean intersects(Circle other) {
        return center.distanceTo(other.center) <= radius + other.radius;
    }
}
