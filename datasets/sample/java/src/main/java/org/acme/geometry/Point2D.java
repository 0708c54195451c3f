package org.acme.geometry;

import org.acme.util.Preconditions;
import org.acme.util.StringUtils;

/**
 * Immutable point in the plane.
 */
public final class Point2D {

    public static final Point2D ORIGIN = new Point2D(0.0, 0.0);

    private final double x;
    private final double y;

    public Point2D(double x, double y) {
        if (Double.isNaN(x) || Double.isNaN(y)) {
            throw new IllegalArgumentException("coordinates must not be NaN");
        }
        this.x = x;
        this.y = y;
    }

    public double getX() {
        return x;
    }

    public double getY() {
        return y;
    }

    public double distanceTo(Point2D other) {
        Preconditions.checkNotNull(other, "other");
        double dx = other.x - x;
        double dy = other.y - y;
        return Math.sqrt(dx * dx + dy * dy);
    }

    public Point2D translate(double dx, double dy) {
        return new Point2D(x + dx, y + dy);
    }

    public Point2D translate(Vector2D offset) {
        Preconditions.checkNotNull(offset, "offset");
        return translate(offset.getX(), offset.getY());
    }

    public Point2D midpoint(Point2D other) {
        Preconditions.checkNotNull(other, "other");
        return new Point2D((x + other.x) / 2.0, (y + other.y) / 2.0);
    }

    public Vector2D vectorTo(Point2D other) {
        Preconditions.checkNotNull(other, "other");
        return new Vector2D(other.x - x, other.y - y);
    }

    /** Rotates this point counter-clockwise around the pivot. */
    public Point2D rotate(Point2D pivot, double degrees) {
        double radians = GeometryMath.toRadians(degrees);
        double cos = Math.cos(radians);
        double sin = Math.sin(radians);
        double dx = x - pivot.x;
        double dy = y - pivot.y;
        return new Point2D(pivot.x + dx * cos - dy * sin, pivot.y + dx * sin + dy * cos);
    }

    /** Parses "(x, y)" or "x,y". */
    public static Point2D parse(String text) {
        Preconditions.checkNotNull(text, "text");
        String body = text.trim();
        if (body.startsWith("(") && body.endsWith(")")) {
            body = body.substring(1, body.length() - 1);
        }
        String[] parts = body.split(",");
        if (parts.length != 2) {
            throw new GeometryException("expected two coordinates in '" + text + "'");
        }
        try {
            return new Point2D(Double.parseDouble(parts[0].trim()), Double.parseDouble(parts[1].trim()));
        } catch (NumberFormatException e) {
            throw new GeometryException("invalid coordinate in '" + text + "'", e);
        }
    }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) {
            return true;
        }
        if (!(obj instanceof Point2D)) {
            return false;
        }
        Point2D other = (Point2D) obj;
        return x == other.x && y == other.y;
    }

    @Override
    public int hashCode() {
        return 31 * Double.hashCode(x) + Double.hashCode(y);
    }

    @Override
    public String toString() {
        return "(" + StringUtils.formatNumber(x, 3) + ", " + StringUtils.formatNumber(y, 3) + ")";
    }
}
