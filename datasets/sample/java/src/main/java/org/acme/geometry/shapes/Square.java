package org.acme.geometry.shapes;

import org.acme.geometry.Point2D;

public final class Square extends Rectangle {

    public Square(Point2D corner, double side) {
        super("square", corner, side, side);
    }

    public double getSide() {
        return getWidth();
    }

    public Square withSide(double side) {
        return new Square(getCorner(), side);
    }
}
