package org.acme.geometry.units;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.acme.geometry.GeometryException;

/**
 * Alternative unit names ("metre", "feet", ...) read from a bundled resource.
 */
public final class UnitAliases {

    private static final String RESOURCE = "unit-aliases.properties";

    private final Map<String, LengthUnit> aliases;

    private UnitAliases(Map<String, LengthUnit> aliases) {
        this.aliases = aliases;
    }

    /**
     * Parses lines "alias = symbol"; blank lines and lines starting with '#' are skipped.
     * Aliases are case-insensitive.
     */
    public static UnitAliases parse(String text) {
        Map<String, LengthUnit> map = new TreeMap<>();
        String[] lines = text.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new GeometryException("line " + (i + 1) + ": expected 'alias = symbol'");
            }
            String alias = line.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String symbol = line.substring(eq + 1).trim();
            map.put(alias, LengthUnit.fromSymbol(symbol));
        }
        return new UnitAliases(map);
    }

    /** Aliases bundled with the library. */
    public static UnitAliases loadDefault() {
        try (InputStream in = UnitAliases.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + RESOURCE, e);
        }
    }

    /** Unit for an alias (case-insensitive) or, failing that, for an exact symbol. */
    public LengthUnit resolve(String name) {
        LengthUnit unit = aliases.get(name.trim().toLowerCase(Locale.ROOT));
        if (unit != null) {
            return unit;
        }
        return LengthUnit.fromSymbol(name.trim());
    }

    public int size() {
        return aliases.size();
    }

    /** Known aliases in sorted order. */
    public List<String> names() {
        return new ArrayList<>(aliases.keySet());
    }
}
