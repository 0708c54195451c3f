package org.acme.geometry.shapes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.acme.geometry.BoundingBox;
import org.acme.geometry.GeometryException;
import org.acme.geometry.GeometryMath;
import org.acme.geometry.Point2D;
import org.acme.util.Preconditions;

/**
 * Simple polygon given by its vertices in order (either orientation).
 */
public final class Polygon extends AbstractShape {

    private final List<Point2D> vertices;

    private Polygon(List<Point2D> vertices) {
        super("polygon");
        this.vertices = Collections.unmodifiableList(new ArrayList<>(vertices));
    }

    public static Polygon of(Point2D... vertices) {
        Builder builder = new Builder();
        for (Point2D vertex : vertices) {
            builder.addVertex(vertex);
        }
        return builder.build();
    }

    public List<Point2D> getVertices() {
        return vertices;
    }

    public int getVertexCount() {
        return vertices.size();
    }

    /** Shoelace sum: positive for counter-clockwise vertex order. */
    double signedArea() {
        double sum = 0.0;
        int n = vertices.size();
        for (int i = 0; i < n; i++) {
            Point2D a = vertices.get(i);
            Point2D b = vertices.get((i + 1) % n);
            sum += a.getX() * b.getY() - b.getX() * a.getY();
        }
        return sum / 2.0;
    }

    @Override
    public double area() {
        return Math.abs(signedArea());
    }

    @Override
    public double perimeter() {
        double total = 0.0;
        int n = vertices.size();
        for (int i = 0; i < n; i++) {
            total += vertices.get(i).distanceTo(vertices.get((i + 1) % n));
        }
        return total;
    }

    @Override
    public BoundingBox boundingBox() {
        return BoundingBox.of(vertices);
    }

    /** Even-odd ray casting towards +x. */
    @Override
    protected boolean containsPoint(Point2D point) {
        boolean inside = false;
        int n = vertices.size();
        for (int i = 0, j = n - 1; i < n; j = i++) {
            Point2D a = vertices.get(i);
            Point2D b = vertices.get(j);
            boolean crosses = (a.getY() > point.getY()) != (b.getY() > point.getY());
            if (crosses) {
                double xAtY = (b.getX() - a.getX()) * (point.getY() - a.getY()) / (b.getY() - a.getY()) + a.getX();
                if (point.getX() < xAtY) {
                    inside = !inside;
                }
            }
        }
        return inside;
    }

    /** True when every turn has the same orientation (collinear turns are ignored). */
    public boolean isConvex() {
        int n = vertices.size();
        int sign = 0;
        for (int i = 0; i < n; i++) {
            double turn = GeometryMath.orientation(vertices.get(i), vertices.get((i + 1) % n), vertices.get((i + 2) % n));
            if (turn != 0.0) {
                int current = turn > 0 ? 1 : -1;
                if (sign == 0) {
                    sign = current;
                } else if (sign != current) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Area centroid. */
    public Point2D centroid() {
        double a = signedArea();
        if (a == 0.0) {
            throw new GeometryException("centroid of a degenerate polygon");
        }
        double cx = 0.0;
        double cy = 0.0;
        int n = vertices.size();
        for (int i = 0; i < n; i++) {
            Point2D p = vertices.get(i);
            Point2D q = vertices.get((i + 1) % n);
            double f = p.getX() * q.getY() - q.getX() * p.getY();
            cx += (p.getX() + q.getX()) * f;
            cy += (p.getY() + q.getY()) * f;
        }
        return new Point2D(cx / (6.0 * a), cy / (6.0 * a));
    }

    /**
     * Collects vertices; consecutive duplicates are dropped.
     */
    public static final class Builder {

        private final List<Point2D> vertices = new ArrayList<>();

        public Builder addVertex(double x, double y) {
            return addVertex(new Point2D(x, y));
        }

        public Builder addVertex(Point2D vertex) {
            Preconditions.checkNotNull(vertex, "vertex");
            if (vertices.isEmpty() || !vertices.get(vertices.size() - 1).equals(vertex)) {
                vertices.add(vertex);
            }
            return this;
        }

        public int size() {
            return vertices.size();
        }

        public Polygon build() {
            List<Point2D> distinct = new ArrayList<>(vertices);
            if (distinct.size() > 1 && distinct.get(0).equals(distinct.get(distinct.size() - 1))) {
                distinct.remove(distinct.size() - 1);
            }
            if (distinct.size() < 3) {
                throw new GeometryException("a polygon needs at least 3 distinct vertices, got " + distinct.size());
            }
            return new Polygon(distinct);
        }
    }
}
