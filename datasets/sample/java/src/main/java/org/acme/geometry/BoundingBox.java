package org.acme.geometry;

import java.util.Arrays;

import org.acme.util.Preconditions;
import org.acme.util.StringUtils;

/**
 * Axis-aligned rectangle, closed on all sides.
 */
public final class BoundingBox {

    private final double minX;
    private final double minY;
    private final double maxX;
    private final double maxY;

    public BoundingBox(double minX, double minY, double maxX, double maxY) {
        if (minX > maxX || minY > maxY) {
            throw new GeometryException("inverted bounding box: min (" + minX + ", " + minY
                    + ") max (" + maxX + ", " + maxY + ")");
        }
        this.minX = minX;
        this.minY = minY;
        this.maxX = maxX;
        this.maxY = maxY;
    }

    public static BoundingBox of(Point2D... points) {
        return of(Arrays.asList(points));
    }

    /** Smallest box containing every point. */
    public static BoundingBox of(Iterable<Point2D> points) {
        Preconditions.checkNotNull(points, "points");
        double minX = Double.POSITIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        int count = 0;
        for (Point2D p : points) {
            minX = Math.min(minX, p.getX());
            minY = Math.min(minY, p.getY());
            maxX = Math.max(maxX, p.getX());
            maxY = Math.max(maxY, p.getY());
            count++;
        }
        if (count == 0) {
            throw new GeometryException("bounding box of no points");
        }
        return new BoundingBox(minX, minY, maxX, maxY);
    }

    public double getMinX() {
        return minX;
    }

    public double getMinY() {
        return minY;
    }

    public double getMaxX() {
        return maxX;
    }

    public double getMaxY() {
        return maxY;
    }

    public double getWidth() {
        return maxX - minX;
    }

    public double getHeight() {
        return maxY - minY;
    }

    public Point2D getCenter() {
        return new Point2D((minX + maxX) / 2.0, (minY + maxY) / 2.0);
    }

    public double area() {
        return getWidth() * getHeight();
    }

    public boolean contains(Point2D p) {
        return p.getX() >= minX && p.getX() <= maxX && p.getY() >= minY && p.getY() <= maxY;
    }

    /** True when the boxes share at least one point (touching edges count). */
    public boolean intersects(BoundingBox other) {
        return minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY;
    }

    public BoundingBox union(BoundingBox other) {
        return new BoundingBox(Math.min(minX, other.minX), Math.min(minY, other.minY),
                Math.max(maxX, other.maxX), Math.max(maxY, other.maxY));
    }

    /** Grows (or, with a negative margin, shrinks) the box on every side. */
    public BoundingBox expand(double margin) {
        return new BoundingBox(minX - margin, minY - margin, maxX + margin, maxY + margin);
    }

    @Override
    public boolean equals(Object obj) {
        if (!(obj instanceof BoundingBox)) {
            return false;
        }
        BoundingBox other = (BoundingBox) obj;
        return minX == other.minX && minY == other.minY && maxX == other.maxX && maxY == other.maxY;
    }

    @Override
    public int hashCode() {
        int hash = Double.hashCode(minX);
        hash = 31 * hash + Double.hashCode(minY);
        hash = 31 * hash + Double.hashCode(maxX);
        return 31 * hash + Double.hashCode(maxY);
    }

    @Override
    public String toString() {
        return "[" + StringUtils.formatNumber(minX, 3) + ", " + StringUtils.formatNumber(minY, 3) + " .. "
                + StringUtils.formatNumber(maxX, 3) + ", " + StringUtils.formatNumber(maxY, 3) + "]";
    }
}
