package org.acme.geometry.units;

import org.acme.geometry.GeometryException;

/**
 * Raised when a unit symbol or alias is not known.
 */
public class UnknownUnitException extends GeometryException {

    private static final long serialVersionUID = 1L;

    private final String symbol;

    public UnknownUnitException(String symbol) {
        super("unknown unit: '" + symbol + "'");
        this.symbol = symbol;
    }

    public String getSymbol() {
        return symbol;
    }
}
