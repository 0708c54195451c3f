package org.acme.geometry.shapes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import org.acme.util.Preconditions;
import org.acme.util.StringUtils;

/**
 * Ordered collection of shapes of one kind.
 */
public final class ShapeCollection<T extends Shape> implements Iterable<T> {

    private final List<T> shapes = new ArrayList<>();

    public void add(T shape) {
        shapes.add(Preconditions.checkNotNull(shape, "shape"));
    }

    public void addAll(Iterable<? extends T> items) {
        for (T item : items) {
            add(item);
        }
    }

    public T get(int index) {
        return shapes.get(Preconditions.checkIndex(index, shapes.size()));
    }

    public int size() {
        return shapes.size();
    }

    public boolean isEmpty() {
        return shapes.isEmpty();
    }

    public double totalArea() {
        double total = 0.0;
        for (T shape : shapes) {
            total += shape.area();
        }
        return total;
    }

    /** Shape with the largest area; the first one wins on ties. */
    public T largest() {
        if (shapes.isEmpty()) {
            throw new IllegalStateException("no shapes");
        }
        T best = shapes.get(0);
        for (T shape : shapes) {
            if (shape.area() > best.area()) {
                best = shape;
            }
        }
        return best;
    }

    public ShapeCollection<T> filter(Predicate<? super T> predicate) {
        ShapeCollection<T> result = new ShapeCollection<>();
        for (T shape : shapes) {
            if (predicate.test(shape)) {
                result.add(shape);
            }
        }
        return result;
    }

    /** Shapes by increasing area; equal areas keep insertion order. */
    public List<T> sortedByArea() {
        List<T> sorted = new ArrayList<>(shapes);
        sorted.sort(Comparator.comparingDouble(Shape::area));
        return sorted;
    }

    public <R> List<R> map(Function<? super T, ? extends R> mapper) {
        List<R> result = new ArrayList<>(shapes.size());
        for (T shape : shapes) {
            result.add(mapper.apply(shape));
        }
        return result;
    }

    public Summary summarize() {
        double perimeter = 0.0;
        for (T shape : shapes) {
            perimeter += shape.perimeter();
        }
        return new Summary(shapes.size(), totalArea(), perimeter);
    }

    @Override
    public Iterator<T> iterator() {
        return shapes.iterator();
    }

    /**
     * Totals over a collection.
     */
    public static final class Summary {

        private final int count;
        private final double totalArea;
        private final double totalPerimeter;

        Summary(int count, double totalArea, double totalPerimeter) {
            this.count = count;
            this.totalArea = totalArea;
            this.totalPerimeter = totalPerimeter;
        }

        public int getCount() {
            return count;
        }

        public double getTotalArea() {
            return totalArea;
        }

        public double getTotalPerimeter() {
            return totalPerimeter;
        }

        public double getAverageArea() {
            return count == 0 ? 0.0 : totalArea / count;
        }

        @Override
        public String toString() {
            return count + " shapes, area " + StringUtils.formatNumber(totalArea, 2)
                    + ", perimeter " + StringUtils.formatNumber(totalPerimeter, 2);
        }
    }
}
