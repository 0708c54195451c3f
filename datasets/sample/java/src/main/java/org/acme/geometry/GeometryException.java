package org.acme.geometry;

/**
 * Raised when a geometric construction or parse is invalid.
 */
public class GeometryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public GeometryException(String message) {
        super(message);
    }

    public GeometryException(String message, Throwable cause) {
        super(message, cause);
    }
}
