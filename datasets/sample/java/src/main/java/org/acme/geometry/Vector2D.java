package org.acme.geometry;

import org.acme.util.StringUtils;

/**
 * Immutable displacement vector.
 */
public final class Vector2D {

    public static final Vector2D ZERO = new Vector2D(0.0, 0.0);

    private final double x;
    private final double y;

    public Vector2D(double x, double y) {
        this.x = x;
        this.y = y;
    }

    public double getX() {
        return x;
    }

    public double getY() {
        return y;
    }

    public double magnitude() {
        return Math.sqrt(x * x + y * y);
    }

    public Vector2D add(Vector2D other) {
        return new Vector2D(x + other.x, y + other.y);
    }

    public Vector2D subtract(Vector2D other) {
        return new Vector2D(x - other.x, y - other.y);
    }

    public Vector2D scale(double factor) {
        return new Vector2D(x * factor, y * factor);
    }

    public double dot(Vector2D other) {
        return x * other.x + y * other.y;
    }

    /** z component of the 3D cross product. */
    public double cross(Vector2D other) {
        return x * other.y - y * other.x;
    }

    public Vector2D normalize() {
        double length = magnitude();
        if (length == 0.0) {
            throw new GeometryException("cannot normalize the zero vector");
        }
        return new Vector2D(x / length, y / length);
    }

    /** Counter-clockwise perpendicular. */
    public Vector2D perpendicular() {
        return new Vector2D(-y, x);
    }

    /** Unsigned angle between the two vectors, in degrees. */
    public double angleTo(Vector2D other) {
        double denominator = magnitude() * other.magnitude();
        if (denominator == 0.0) {
            throw new GeometryException("angle with the zero vector is undefined");
        }
        double cos = GeometryMath.clamp(dot(other) / denominator, -1.0, 1.0);
        return GeometryMath.toDegrees(Math.acos(cos));
    }

    @Override
    public boolean equals(Object obj) {
        if (!(obj instanceof Vector2D)) {
            return false;
        }
        Vector2D other = (Vector2D) obj;
        return x == other.x && y == other.y;
    }

    @Override
    public int hashCode() {
        return 17 * Double.hashCode(x) ^ Double.hashCode(y);
    }

    @Override
    public String toString() {
        return "<" + StringUtils.formatNumber(x, 3) + ", " + StringUtils.formatNumber(y, 3) + ">";
    }
}
