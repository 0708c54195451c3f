package org.acme.geometry.shapes;

import org.acme.geometry.BoundingBox;
import org.acme.geometry.Point2D;
import org.acme.util.StringUtils;

/**
 * A closed plane figure.
 */
public interface Shape {

    String getName();

    double area();

    double perimeter();

    BoundingBox boundingBox();

    boolean contains(Point2D point);

    /** One-line summary such as "circle: area 3.14, perimeter 6.28". */
    default String describe() {
        return getName() + ": area " + StringUtils.formatNumber(area(), 2)
                + ", perimeter " + StringUtils.formatNumber(perimeter(), 2);
    }
}
