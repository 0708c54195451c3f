package org.acme.geometry.units;

import org.acme.geometry.GeometryException;
import org.acme.util.Preconditions;
import org.acme.util.StringUtils;

/**
 * A length value with its unit.
 */
public final class Length implements Comparable<Length> {

    private final double value;
    private final LengthUnit unit;

    public Length(double value, LengthUnit unit) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("length must be finite: " + value);
        }
        this.value = value;
        this.unit = Preconditions.checkNotNull(unit, "unit");
    }

    /** Parses "12.5 km" (value, whitespace, unit symbol). */
    public static Length parse(String text) {
        String[] parts = text.trim().split("\\s+");
        if (parts.length != 2) {
            throw new GeometryException("expected '<value> <unit>' but got '" + text + "'");
        }
        double value;
        try {
            value = Double.parseDouble(parts[0]);
        } catch (NumberFormatException e) {
            throw new GeometryException("invalid length value '" + parts[0] + "'", e);
        }
        return new Length(value, LengthUnit.fromSymbol(parts[1]));
    }

    public double getValue() {
        return value;
    }

    public LengthUnit getUnit() {
        return unit;
    }

    public double toMeters() {
        return unit.toMeters(value);
    }

    public Length to(LengthUnit target) {
        return new Length(unit.convert(value, target), target);
    }

    /** Sum expressed in this length's unit. */
    public Length plus(Length other) {
        return new Length(value + other.unit.convert(other.value, unit), unit);
    }

    public Length minus(Length other) {
        return new Length(value - other.unit.convert(other.value, unit), unit);
    }

    public Length times(double factor) {
        return new Length(value * factor, unit);
    }

    @Override
    public int compareTo(Length other) {
        return Double.compare(toMeters(), other.toMeters());
    }

    /** Same value and same unit (1000 m is not equal to 1 km; compare with compareTo). */
    @Override
    public boolean equals(Object obj) {
        if (!(obj instanceof Length)) {
            return false;
        }
        Length other = (Length) obj;
        return value == other.value && unit == other.unit;
    }

    @Override
    public int hashCode() {
        return 31 * Double.hashCode(value) + unit.hashCode();
    }

    @Override
    public String toString() {
        return StringUtils.formatNumber(value, 6) + " " + unit.getSymbol();
    }
}
