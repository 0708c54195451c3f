package org.acme.geometry.units;

/**
 * Units of length with their size in meters.
 */
public enum LengthUnit {
    MILLIMETER("mm", 0.001, true),
    CENTIMETER("cm", 0.01, true),
    METER("m", 1.0, true),
    KILOMETER("km", 1000.0, true),
    INCH("in", 0.0254, false),
    FOOT("ft", 0.3048, false),
    MILE("mi", 1609.344, false);

    private final String symbol;
    private final double metersPerUnit;
    private final boolean metric;

    LengthUnit(String symbol, double metersPerUnit, boolean metric) {
        this.symbol = symbol;
        this.metersPerUnit = metersPerUnit;
        this.metric = metric;
    }

    public String getSymbol() {
        return symbol;
    }

    public double getMetersPerUnit() {
        return metersPerUnit;
    }

    public boolean isMetric() {
        return metric;
    }

    public double toMeters(double value) {
        return value * metersPerUnit;
    }

    public double fromMeters(double meters) {
        return meters / metersPerUnit;
    }

    /** Converts a value in this unit into the target unit. */
    public double convert(double value, LengthUnit target) {
        if (target == this) {
            return value;
        }
        return target.fromMeters(toMeters(value));
    }

    /** Unit whose symbol matches exactly (case-sensitive: "m" is not "M"). */
    public static LengthUnit fromSymbol(String symbol) {
        for (LengthUnit unit : values()) {
            if (unit.symbol.equals(symbol)) {
                return unit;
            }
        }
        throw new UnknownUnitException(symbol);
    }
}
