package org.acme.geometry.shapes;

import org.acme.geometry.Point2D;
import org.acme.util.Preconditions;
import org.acme.util.StringUtils;

/**
 * Base class holding the name and the containment template.
 */
public abstract class AbstractShape implements Shape {

    private final String name;

    protected AbstractShape(String name) {
        Preconditions.checkArgument(!StringUtils.isBlank(name), "name must not be blank");
        this.name = name;
    }

    @Override
    public String getName() {
        return name;
    }

    /** Bounding-box pre-check, then the exact test of the subclass. */
    @Override
    public final boolean contains(Point2D point) {
        Preconditions.checkNotNull(point, "point");
        if (!boundingBox().contains(point)) {
            return false;
        }
        return containsPoint(point);
    }

    /** Exact containment; called only for points inside the bounding box. */
    protected abstract boolean containsPoint(Point2D point);

    public int compareByArea(Shape other) {
        return Double.compare(area(), other.area());
    }

    /** Isoperimetric quotient 4*pi*A/P^2: 1 for a circle, smaller for everything else. */
    public double compactness() {
        double p = perimeter();
        if (p == 0.0) {
            return 0.0;
        }
        return 4.0 * Math.PI * area() / (p * p);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + describe() + "]";
    }
}
