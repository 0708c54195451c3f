import java.util.*;
import java.util.function.*;
import java.util.stream.*;
import java.util.regex.*;
import java.nio.charset.*;

// One static method per construct; main prints "<construct>: <value>" lines.
// Translated method by method into C# by repotrans.policy and compared with `java` output.
public class Constructs {
    enum Color { RED, GREEN, BLUE }

    static int loops(int n) {
        int sum = 0;
        for (int i = 0, j = n; i < j; i++, j--) { sum += i * j; }
        int k = 0;
        while (k < n) { k += 3; }
        do { sum--; } while (sum > 100);
        return sum + k;
    }

    static String forEach(List<String> words) {
        StringBuilder sb = new StringBuilder();
        for (String w : words) { sb.append(w.charAt(0)); }
        for (final char c : "xyz".toCharArray()) { sb.append(c); }
        return sb.toString();
    }

    static String labelled(int[][] grid) {
        StringBuilder sb = new StringBuilder();
        outer:
        for (int i = 0; i < grid.length; i++) {
            for (int j = 0; j < grid[i].length; j++) {
                if (grid[i][j] < 0) continue outer;
                if (grid[i][j] > 50) break outer;
                sb.append(grid[i][j]).append(',');
            }
            sb.append('|');
        }
        int n = 0;
        search:
        while (true) {
            n++;
            if (n > 4) break search;
        }
        return sb.toString() + n;
    }

    static String switchFall(int x) {
        String out = "";
        switch (x) {
            case 1:
            case 2:
                out += "low";
            case 3:
                out += "three";
                break;
            case 4: {
                out += "four";
                return out + "!";
            }
            default:
                out += "other";
        }
        return out;
    }

    static int switchString(String s) {
        switch (s) {
            case "a": return 1;
            case "b": return 2;
            default: return -1;
        }
    }

    static String switchEnum(Color c) {
        switch (c) {
            case RED: return "r";
            case GREEN: return "g";
            default: return "other";
        }
    }

    static String switchArrow(int d) {
        String name;
        switch (d) {
            case 0, 6 -> name = "weekend";
            case 3 -> { name = "mid"; }
            default -> name = "day";
        }
        return name;
    }

    static String switchValue(int d, Color c) {
        String day = switch (d) {
            case 0, 6 -> "weekend";
            case 3 -> "mid";
            default -> "day";
        };
        int code = switch (c) { case RED -> 1; case GREEN -> 2; default -> 3; };
        return day + code;
    }

    static String tryCatch(String s) {
        StringBuilder log = new StringBuilder();
        try {
            int v = Integer.parseInt(s);
            log.append("parsed ").append(v);
            if (v < 0) throw new IllegalArgumentException("negative");
            if (v == 0) throw new IllegalStateException("zero");
            log.append(" ok ").append(10 / (v - 1));
        } catch (NumberFormatException e) {
            log.append("bad number");
        } catch (IllegalArgumentException | IllegalStateException e) {
            log.append("rejected ").append(e.getMessage());
        } catch (ArithmeticException e) {
            log.append("div by zero");
        } finally {
            log.append(";");
        }
        return log.toString();
    }

    static String tryResources() {
        StringBuilder log = new StringBuilder();
        try (Res a = new Res("a", log); Res b = new Res("b", log)) {
            log.append("body ");
        }
        return log.toString();
    }

    static String ternary(int a) {
        return a > 0 ? "pos" : a < 0 ? "neg" : "zero";
    }

    static String instanceOf(Object o) {
        if (o instanceof String) return "string " + ((String) o).length();
        if (o instanceof Integer) return "int " + ((Integer) o + 1);
        return "other";
    }

    static long casts(double d) {
        int i = (int) d;
        char c = (char) ('A' + i);
        long big = (long) i * 1000000000L;
        return big + c + (int) 'z';
    }

    static int arrays(int n) {
        int[] a = new int[n];
        int[] b = {5, 3, 9};
        int[][] grid = new int[n][n];
        int[][] tri = {{1}, {2, 3}};
        for (int i = 0; i < a.length; i++) { a[i] = i * i; grid[i][i] = i; }
        return a[n - 1] + b.length + grid[n - 1][n - 1] + tri[1][1] + grid.length;
    }

    static String generics() {
        List<Integer> xs = new ArrayList<>();
        Map<String, List<Integer>> groups = new HashMap<>();
        xs.add(3); xs.add(1); xs.add(2);
        groups.put("all", xs);
        return "" + groups.get("all").size() + first(xs) + maxOf(xs);
    }

    static <T> T first(List<T> items) {
        return items.get(0);
    }

    static <T extends Comparable<T>> T maxOf(List<T> items) {
        T best = items.get(0);
        for (T item : items) { if (item.compareTo(best) > 0) best = item; }
        return best;
    }

    static String lambdas() {
        Function<Integer, Integer> twice = x -> x * 2;
        BiFunction<Integer, Integer, Integer> add = (a, b) -> a + b;
        Supplier<String> hello = () -> "hi";
        Predicate<String> empty = s -> s.isEmpty();
        Runnable noop = () -> { };
        noop.run();
        Comparator<String> byLength = (a, b) -> a.length() - b.length();
        List<String> words = new ArrayList<>(Arrays.asList("ccc", "a", "bb"));
        Collections.sort(words, byLength);
        return twice.apply(4) + " " + add.apply(2, 3) + " " + hello.get() + " " + empty.test("") + " " + words;
    }

    static String anonymous() {
        List<String> words = new ArrayList<>(Arrays.asList("pear", "fig", "banana"));
        Collections.sort(words, new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return b.compareTo(a);
            }
        });
        return String.join(",", words);
    }

    static String strings(String s) {
        String t = s.trim();
        return t.length() + " " + t.charAt(1) + " " + t.substring(2) + " " + t.substring(1, 3) + " "
            + t.indexOf("l") + " " + t.indexOf('o') + " " + t.toUpperCase() + " " + t.equals("hello") + " "
            + t.isEmpty() + " " + t.replace('l', 'L') + " " + t.contains("ell") + " " + t.startsWith("he") + " "
            + String.format("%d-%s-%.2f", 7, "x", 1.5) + " " + t.split("l").length + " " + "a,b,,".split(",").length + " " + "a,b,,".split(",", -1).length + " " + "a" + 1 + 2;
    }

    static String builders() {
        StringBuilder sb = new StringBuilder("abc");
        sb.append(1).append('x').append(true);
        sb.insert(0, "<");
        sb.setCharAt(1, 'A');
        sb.deleteCharAt(sb.length() - 1);
        String before = sb.toString();
        sb.setLength(3);
        return before + " " + sb + " " + sb.length() + " " + new StringBuilder("dog").reverse().toString();
    }

    static String maths(int a, int b) {
        return Math.max(a, b) + " " + Math.min(a, b) + " " + Math.abs(-a) + " " + (int) Math.sqrt(49) + " "
            + (int) Math.pow(2, 10) + " " + Math.round(2.5) + " " + (int) Math.floor(-1.5) + " " + (int) Math.ceil(1.2)
            + " " + (int) Math.toDegrees(Math.acos(0.0)) + " " + Double.isInfinite(1.0 / 0)
            + " " + (a / b) + " " + (a % b) + " " + (-a / b) + " " + (-a % b) + " " + Math.floorMod(-a, b);
    }

    static String characters(String s) {
        int digits = 0, letters = 0, upper = 0, spaces = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isDigit(c)) digits++;
            if (Character.isLetter(c)) letters++;
            if (Character.isUpperCase(c)) upper++;
            if (Character.isWhitespace(c)) spaces++;
        }
        return digits + " " + letters + " " + upper + " " + spaces + " " + Character.toUpperCase('q')
            + Character.getNumericValue('7');
    }

    static String numbers(String s) {
        int v = Integer.parseInt(s);
        long big = Long.parseLong("9000000000");
        return v + " " + Integer.MAX_VALUE + " " + Integer.MIN_VALUE + " " + (Integer.MAX_VALUE + 1) + " " + big
            + " " + Long.MAX_VALUE + " " + Integer.valueOf("12") + " " + Integer.toString(v) + " " + Integer.compare(3, 5);
    }

    static String bits(int x, long y) {
        int[] table = { // a comment inside an initializer
            Integer.bitCount(x), Integer.bitCount(-x), Long.bitCount(y), Long.bitCount(-y), /* block */ Integer.bitCount(0),
            Integer.numberOfTrailingZeros(x), Integer.numberOfTrailingZeros(0), Integer.numberOfLeadingZeros(x),
            Integer.numberOfLeadingZeros(-1), Long.numberOfTrailingZeros(y), Long.numberOfLeadingZeros(y),
            Integer.highestOneBit(x), Integer.lowestOneBit(x), (int) Long.highestOneBit(y)};
        return Arrays.toString(table) + " " + Integer.highestOneBit(-x);
    }

    static String patterns(String s) {
        Pattern p = Pattern.compile("([a-z]+)-(\\d+)(?:-(x))?", Pattern.CASE_INSENSITIVE);
        Matcher m = p.matcher(s);
        if (!m.matches()) {
            return "no";
        }
        String third = m.group(3) == null ? "none" : m.group(3);
        return m.group(1) + "|" + m.group(2) + "|" + third + "|" + m.groupCount() + "|" + m.start() + "|" + m.end()
            + "|" + Pattern.matches("a+", "aaa") + "|" + Pattern.matches("a+", "aab");
    }

    static String collections() {
        List<String> list = new ArrayList<>();
        list.add("b"); list.add("a"); list.add(0, "c");
        list.set(1, "B");
        list.remove("a");
        Map<String, Integer> counts = new TreeMap<>();
        for (String w : new String[] {"x", "y", "x", "z", "x"}) {
            counts.put(w, counts.getOrDefault(w, 0) + 1);
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue()).append(' ');
        }
        Set<Integer> seen = new HashSet<>();
        boolean added = seen.add(4);
        boolean again = seen.add(4);
        Map<String, List<Integer>> index = new TreeMap<>();
        Map<Character, Integer> freq = new TreeMap<>();
        for (int i = 0; i < 5; i++) {
            index.computeIfAbsent(i % 2 == 0 ? "even" : "odd", k -> new ArrayList<>()).add(i);
            freq.merge("abcab".charAt(i), 1, Integer::sum);
        }
        StringBuilder each = new StringBuilder();
        freq.forEach((ch, n) -> each.append(ch).append(n));
        Iterator<String> it = list.iterator();
        String joined = "";
        while (it.hasNext()) { joined += it.next(); }
        return list.size() + " " + list.get(0) + " " + list.contains("B") + " " + counts.containsKey("y") + " "
            + counts.get("x") + " " + sb.toString().trim() + " " + added + again + seen.size() + " " + joined
            + " " + list.isEmpty() + " " + counts.keySet().size() + " " + index.get("even") + index.get("odd") + " " + each;
    }

    static String arraysUtil() {
        int[] a = {5, 2, 9, 1};
        Arrays.sort(a);
        int[] b = Arrays.copyOf(a, 6);
        int[] c = new int[3];
        Arrays.fill(c, 7);
        List<Integer> xs = Arrays.asList(3, 1, 2);
        Integer[] boxed = {4, 5};
        List<Integer> ys = Arrays.asList(boxed);
        return Arrays.toString(a) + " " + Arrays.toString(b) + " " + Arrays.toString(c) + " " + xs.size() + ys;
    }

    static String collectionsUtil() {
        List<Integer> xs = new ArrayList<>(Arrays.asList(3, 1, 2));
        Collections.sort(xs);
        String sorted = xs.toString();
        Collections.reverse(xs);
        List<Integer> ro = Collections.unmodifiableList(xs);
        List<String> none = Collections.emptyList();
        return sorted + " " + xs + " " + ro.size() + " " + none.size();
    }

    static String objectsUtil(String a, String b) {
        String checked = Objects.requireNonNull(a, "a is null");
        boolean same = Objects.equals(a, b);
        boolean nulls = Objects.equals(null, null);
        int h = Objects.hash(1, 2, 3);
        try {
            Objects.requireNonNull(null, "missing");
        } catch (NullPointerException e) {
            return checked + " " + same + " " + nulls + " " + h + " " + e.getMessage();
        }
        return "unreachable";
    }

    static String exceptions(int kind) {
        try {
            if (kind == 0) throw new UnsupportedOperationException("nope");
            if (kind == 1) throw new IndexOutOfBoundsException("idx");
            if (kind == 2) throw new NullPointerException("npe");
            int[] a = new int[1];
            return "" + a[kind];
        } catch (UnsupportedOperationException e) {
            return "unsupported " + e.getMessage();
        } catch (NullPointerException e) {
            return "null " + e.getMessage();
        } catch (ArrayIndexOutOfBoundsException e) {
            return "array index";
        } catch (IndexOutOfBoundsException e) {
            return "index";
        }
    }

    static String charArithmetic(char c) {
        int code = c + 1;
        char next = (char) (c + 1);
        char shifted = c;
        shifted += 2;
        shifted++;
        int diff = 'z' - c;
        return code + " " + next + " " + shifted + " " + diff + " " + (char) (next + 1) + " " + (c + 'a');
    }

    static String shifts(int x, long y) {
        int neg = -x;
        int u = neg >>> 28;
        long lu = -y >>> 60;
        int s = neg >> 2;
        int l = x << 3;
        neg >>>= 1;
        return u + " " + lu + " " + s + " " + l + " " + neg + " " + (7 / 2) + " " + (7.0 / 2);
    }

    static String finalAndVar() {
        final int limit = 3;
        var items = new ArrayList<String>();
        for (var i = 0; i < limit; i++) { items.add("i" + i); }
        var total = 0;
        for (var s : items) { total += s.length(); }
        return items.size() + " " + total;
    }

    static String streams(List<String> words) {
        List<String> longOnes = words.stream().filter(w -> w.length() > 3).map(w -> w.toUpperCase())
            .collect(Collectors.toList());
        int total = words.stream().mapToInt(w -> w.length()).sum();
        long count = words.stream().filter(w -> w.startsWith("b")).count();
        boolean any = words.stream().anyMatch(w -> w.isEmpty());
        String joined = words.stream().sorted().distinct().collect(Collectors.joining("+"));
        int squares = IntStream.range(1, 4).map(i -> i * i).sum();
        return longOnes + " " + total + " " + count + " " + any + " " + joined + " " + squares;
    }

    static String printing() {
        System.out.println("print: " + 42);
        System.out.print("print: ");
        System.out.println(true);
        System.out.printf("print: %s=%d%n", "k", 5);
        return "done";
    }

    static String charsets(String s) throws java.io.UnsupportedEncodingException {
        byte[] latin = s.getBytes(StandardCharsets.ISO_8859_1);
        byte[] utf = s.getBytes(StandardCharsets.UTF_8);
        Charset ascii = Charset.forName("US-ASCII");
        String back = new String(utf, StandardCharsets.UTF_8);
        String part = new String(latin, 1, 2, StandardCharsets.ISO_8859_1);
        return latin.length + " " + utf.length + " " + back + " " + part + " " + new String(s.getBytes(ascii), ascii)
            + " " + new String(utf, "UTF-8");
    }

    static String codePoints(String s) {
        StringBuilder sb = new StringBuilder();
        int digits = 0;
        for (int i = 0; i < s.length(); i += Character.charCount(s.codePointAt(i))) {
            int c = s.codePointAt(i);
            if (Character.isDigit(c)) digits++;
            else if (Character.isWhitespace(c)) sb.append('_');
            else sb.appendCodePoint(Character.toUpperCase(c));
        }
        return sb.toString() + " " + digits + " " + Character.isLetter(s.codePointAt(0));
    }

    static String surrogates(String s) {      // jsoup's StringUtil.normaliseWhitespace: a pair is one code point
        StringBuilder sb = new StringBuilder();
        int c;
        for (int i = 0; i < s.length(); i += Character.charCount(c)) {
            c = s.codePointAt(i);
            if (c == ' ') sb.append('_');
            else sb.appendCodePoint(c);
        }
        return sb.toString() + " " + sb.length() + " " + Integer.toHexString(s.codePointAt(0)) + " ["
            + "  a  b ".replaceFirst("^\\s+", "") + "|" + "a1b22".replaceFirst("[0-9]+", "#") + "]";
    }

    static String arrayStatements(int m) {
        float[] counts;
        if (m == 0) { counts = new float[]{0, 1, 1.25f}; } else { counts = new float[]{1, 2}; }
        byte[] mins = new byte[4];
        Arrays.fill(mins, (byte) 3);
        Arrays.fill(mins, 1, 3, (byte) 0);
        return counts.length + " " + (int) (counts[counts.length - 1] * 100) + " " + mins[0] + mins[1] + mins[2] + mins[3];
    }

    static String helperCalls(int n) {
        return ternary(n) + "/" + switchFall(n);
    }

    public static void main(String[] args) {
        System.out.println("loops: " + loops(7));
        System.out.println("forEach: " + forEach(Arrays.asList("alpha", "beta")));
        System.out.println("labelled: " + labelled(new int[][] {{1, 2}, {-1, 5}, {3, 60, 4}, {8}}));
        for (int i = 0; i <= 5; i++) System.out.println("switchFall: " + switchFall(i));
        System.out.println("switchString: " + switchString("a") + switchString("b") + switchString("q"));
        System.out.println("switchEnum: " + switchEnum(Color.RED) + switchEnum(Color.GREEN) + switchEnum(Color.BLUE));
        System.out.println("switchArrow: " + switchArrow(0) + switchArrow(3) + switchArrow(4));
        System.out.println("switchValue: " + switchValue(0, Color.RED) + switchValue(3, Color.GREEN) + switchValue(5, Color.BLUE));
        for (String s : new String[] {"5", "x", "-2", "0", "1"}) System.out.println("tryCatch: " + tryCatch(s));
        System.out.println("tryResources: " + tryResources());
        System.out.println("ternary: " + ternary(5) + ternary(-5) + ternary(0));
        System.out.println("instanceOf: " + instanceOf("abc") + " " + instanceOf(41) + " " + instanceOf(2.0));
        System.out.println("casts: " + casts(3.99));
        System.out.println("arrays: " + arrays(4));
        System.out.println("generics: " + generics());
        System.out.println("lambdas: " + lambdas());
        System.out.println("anonymous: " + anonymous());
        System.out.println("strings: " + strings("  hello world "));
        System.out.println("builders: " + builders());
        System.out.println("maths: " + maths(17, 5));
        System.out.println("characters: " + characters("Ab3 x9 Z"));
        System.out.println("numbers: " + numbers("-42"));
        System.out.println("bits: " + bits(40, 96L));
        System.out.println("patterns: " + patterns("Ab-12") + " " + patterns("Ab-12-x") + " " + patterns("zz") + " " + patterns("x-1y"));
        System.out.println("collections: " + collections());
        System.out.println("arraysUtil: " + arraysUtil());
        System.out.println("collectionsUtil: " + collectionsUtil());
        System.out.println("objectsUtil: " + objectsUtil("p", "q"));
        for (int k = 0; k < 4; k++) System.out.println("exceptions: " + exceptions(k));
        System.out.println("charArithmetic: " + charArithmetic('c'));
        System.out.println("shifts: " + shifts(5, 3L));
        System.out.println("finalAndVar: " + finalAndVar());
        System.out.println("streams: " + streams(Arrays.asList("banana", "fig", "apple", "fig", "kiwi")));
        System.out.println("print: " + printing());
        System.out.println("helperCalls: " + helperCalls(2));
        System.out.println("codePoints: " + codePoints("ab 12c"));
        System.out.println("surrogates: " + surrogates("\ud869\udeb2\u304b  1"));
        System.out.println("arrayStatements: " + arrayStatements(0) + " " + arrayStatements(1));
        try { System.out.println("charsets: " + charsets("h\u00e9llo")); } catch (java.io.UnsupportedEncodingException e) { }
    }
}

class Res implements AutoCloseable {
    private final String name;
    private final StringBuilder log;

    Res(String name, StringBuilder log) { this.name = name; this.log = log; log.append("open ").append(name).append(' '); }

    @Override
    public void close() { log.append("close ").append(name).append(' '); }
}
