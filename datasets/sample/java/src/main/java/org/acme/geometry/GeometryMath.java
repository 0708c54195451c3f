package org.acme.geometry;

/**
 * Numeric helpers for geometry code.
 */
public final class GeometryMath {

    /** Default relative tolerance. */
    public static final double EPSILON = 1e-9;

    private GeometryMath() {
    }

    public static boolean almostEqual(double a, double b) {
        return almostEqual(a, b, EPSILON);
    }

    /** Relative comparison: |a - b| <= tolerance * max(1, |a|, |b|). */
    public static boolean almostEqual(double a, double b, double tolerance) {
        if (tolerance < 0) {
            throw new IllegalArgumentException("tolerance must not be negative: " + tolerance);
        }
        double scale = Math.max(1.0, Math.max(Math.abs(a), Math.abs(b)));
        return Math.abs(a - b) <= tolerance * scale;
    }

    public static double clamp(double value, double min, double max) {
        if (min > max) {
            throw new IllegalArgumentException("min " + min + " is greater than max " + max);
        }
        if (value < min) {
            return min;
        }
        if (value > max) {
            return max;
        }
        return value;
    }

    /** Maps any angle in degrees into [0, 360). */
    public static double normalizeDegrees(double degrees) {
        double result = degrees % 360.0;
        if (result < 0) {
            result += 360.0;
        }
        return result == 360.0 ? 0.0 : result;
    }

    public static double toRadians(double degrees) {
        return degrees * Math.PI / 180.0;
    }

    public static double toDegrees(double radians) {
        return radians * 180.0 / Math.PI;
    }

    /**
     * Orientation of the turn o -> a -> b: positive for counter-clockwise,
     * negative for clockwise, zero when collinear.
     */
    public static double orientation(Point2D o, Point2D a, Point2D b) {
        return (a.getX() - o.getX()) * (b.getY() - o.getY())
                - (a.getY() - o.getY()) * (b.getX() - o.getX());
    }
}
