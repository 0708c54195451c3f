import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.*;
import java.net.URLEncoder;
import java.net.URLDecoder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

// The JDK as ports write it: one static method per category, main prints "<category>: <value>" lines.
// Translated method by method into C# by repotrans.translator and compared with `java` output.
public class JdkIdioms {

    static String linkedList() {
        LinkedList<String> xs = new LinkedList<>();
        xs.add("b");
        xs.addFirst("a");
        xs.addLast("c");
        xs.add("d");
        String first = xs.getFirst(), last = xs.getLast();
        String removed = xs.removeFirst();
        String tail = xs.removeLast();
        xs.push("z");
        String top = xs.peek();
        String popped = xs.pop();
        xs.offer("e");
        String polled = xs.poll();
        return first + last + removed + tail + top + popped + polled + " " + xs + " " + xs.size() + " " + xs.peekLast()
            + " " + xs.element();
    }

    static String deque() {
        Deque<Integer> stack = new ArrayDeque<>();
        stack.push(1);
        stack.push(2);
        stack.addFirst(3);
        int top = stack.peekFirst();
        int a = stack.pop();
        int b = stack.removeFirst();
        int c = stack.pollFirst();
        Deque<String> names = new ArrayDeque<>();
        String none = names.pollFirst();
        names.offerFirst("n");
        return top + " " + a + " " + b + " " + c + " " + (none == null) + " " + stack.isEmpty() + " " + names.peek();
    }

    static String queue() {
        Queue<String> q = new LinkedList<>();
        q.offer("x");
        q.add("y");
        q.add("z");
        String head = q.peek();
        String first = q.poll();
        String second = q.remove();
        String third = q.poll();
        String empty = q.poll();
        String peeked = q.peek();
        return head + first + second + third + " " + (empty == null) + " " + (peeked == null) + " " + q.size() + " "
            + q.isEmpty();
    }

    static String urlCodec(String s) throws java.io.UnsupportedEncodingException {
        String enc = URLEncoder.encode(s, "UTF-8");
        String dec = URLDecoder.decode(enc, "UTF-8");
        return enc + " " + dec.equals(s) + " " + URLDecoder.decode("a+b%2Fc%3d", "UTF-8");
    }

    static String calendars(long millis) {
        Calendar cal = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        cal.setTimeInMillis(millis);
        String before = cal.get(Calendar.YEAR) + "-" + cal.get(Calendar.MONTH) + "-" + cal.get(Calendar.DAY_OF_MONTH)
            + " " + cal.get(Calendar.HOUR_OF_DAY) + ":" + cal.get(Calendar.MINUTE) + ":" + cal.get(Calendar.SECOND)
            + " dow " + cal.get(Calendar.DAY_OF_WEEK) + " doy " + cal.get(Calendar.DAY_OF_YEAR);
        cal.add(Calendar.DAY_OF_MONTH, 40);
        cal.add(Calendar.HOUR_OF_DAY, -5);
        cal.add(Calendar.MONTH, 1);
        cal.set(Calendar.MINUTE, 7);
        cal.set(Calendar.SECOND, 0);
        cal.set(Calendar.MILLISECOND, 0);
        boolean sunday = cal.get(Calendar.DAY_OF_WEEK) == Calendar.SUNDAY;
        boolean june = cal.get(Calendar.MONTH) == Calendar.JUNE;
        return before + " | " + cal.get(Calendar.YEAR) + "-" + cal.get(Calendar.MONTH) + "-"
            + cal.get(Calendar.DAY_OF_MONTH) + " " + cal.get(Calendar.HOUR_OF_DAY) + ":" + cal.get(Calendar.MINUTE)
            + " " + cal.getTimeInMillis() + " " + sunday + " " + june;
    }

    static String dates(long millis) {
        Date d = new Date(millis);
        Date later = new Date(millis + 86400000L);
        Calendar cal = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        cal.setTime(later);
        Date back = cal.getTime();
        return d.getTime() + " " + d.before(later) + " " + later.after(d) + " " + d.compareTo(later) + " "
            + back.equals(later) + " " + (later.getTime() - d.getTime()) + " " + cal.get(Calendar.DAY_OF_MONTH);
    }

    static String zones() {
        TimeZone utc = TimeZone.getTimeZone("UTC");
        return utc.getID() + " " + utc.getRawOffset();
    }

    static String format(int n, double x, String s, boolean b) {
        return String.format("%d|%5d|%-5d|%05d|%x|%X|%08x", n, n, n, n, n, n, n) + " "
            + String.format("%.2f|%8.3f|%s|%10s|%-6s|", x, x, s, s, s) + " "
            + String.format("%b %s %c %%", b, b, 'q') + String.format("%s=%d%n", s, n).trim() + " "
            + String.format(Locale.ROOT, "%.1f", x) + " " + String.format("%,d", 1234567);
    }

    // A PrintWriter is a TextWriter; a format built by concatenation (a width or precision from a value) or
    // held in a local read only as a format is converted where it is written.
    static String writers(int digits, double x, long n) {
        StringWriter sw = new StringWriter();
        PrintWriter out = new PrintWriter(sw);
        out.format("%12." + digits + "f|%5d|", x, n);
        String f = "[%" + (digits + 2) + "s]";
        out.printf(f, "ab");
        f = "<%-4d>";
        out.format(Locale.US, f, n);
        out.print(true);
        out.println("!");
        out.flush();
        return sw.toString().trim().replace("\n", "/");
    }

    // A Matcher walks its input: find() the first match, then the next; matches() the whole input;
    // replaceFirst/replaceAll over the input; find(i) from an index.
    static String regexWalks(String text) {
        Pattern digits = Pattern.compile("(\\d+)");
        Matcher m = digits.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            sb.append(m.group(1)).append('@').append(m.start()).append('-').append(m.end()).append(',');
        }
        Matcher whole = digits.matcher("123");
        Matcher part = digits.matcher("12a");
        sb.append(whole.matches()).append(' ').append(part.matches()).append(' ');
        Matcher first = Pattern.compile("[a-z]").matcher(text);
        sb.append(first.replaceFirst("_")).append(' ').append(first.replaceAll("*"));
        if (first.find(3)) {
            sb.append(' ').append(first.group()).append(first.start());
        }
        first.find();
        sb.append(" ").append(first.reset("q1r2").replaceAll("#"));
        sb.append(' ').append(digits.matcher(text).replaceFirst("<$1>")).append(!digits.matcher(text).matches());
        StringBuilder number = new StringBuilder(text);
        Matcher lead = Pattern.compile("[a-z]+").matcher(number);
        if (lead.lookingAt()) {
            StringBuilder copy = new StringBuilder(number);
            copy.replace(0, lead.end(), "#");
            sb.append(' ').append(copy).append(' ').append(number.substring(lead.end())).append(' ')
                .append(number.substring(1, 3)).append(digits.matcher(number).lookingAt());
        }
        return sb.toString();
    }

    static String arraysHelpers() {
        int[] xs = {5, 3, 9, 1};
        int[] copy = Arrays.copyOf(xs, 6);
        Arrays.sort(xs);
        int found = Arrays.binarySearch(xs, 5);
        int missing = Arrays.binarySearch(xs, 4);
        List<String> names = Arrays.asList("b", "a", "c");
        char[] cs = {'x', 'y'};
        return Arrays.toString(xs) + " " + Arrays.toString(copy) + " " + found + " " + missing + " " + names + " "
            + Arrays.equals(xs, new int[] {1, 3, 5, 9}) + " " + Arrays.hashCode(new int[] {1, 2, 3}) + " "
            + Arrays.toString(cs) + " " + Arrays.toString(Arrays.copyOfRange(xs, 1, 3));
    }

    static String collectionsHelpers() {
        List<Integer> xs = new ArrayList<>(Arrays.asList(4, 1, 3, 1));
        Collections.sort(xs);
        int max = Collections.max(xs), min = Collections.min(xs);
        Collections.reverse(xs);
        int freq = Collections.frequency(xs, 1);
        List<String> one = Collections.singletonList("solo");
        List<String> copies = Collections.nCopies(3, "ab");
        Set<String> none = Collections.emptySet();
        List<Integer> empty = Collections.emptyList();
        Collections.swap(xs, 0, 3);
        List<Integer> frozen = Collections.unmodifiableList(xs);
        return xs + " " + max + " " + min + " " + freq + " " + one + " " + copies + " " + none.size() + " "
            + empty.size() + " " + frozen.size();
    }

    static String characterClasses(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(Character.isDigit(c) ? 'd' : Character.isLetter(c) ? (Character.isUpperCase(c) ? 'U' : 'l')
                : Character.isWhitespace(c) ? '_' : Character.isISOControl(c) ? 'c' : '?');
        }
        return sb + " " + Character.digit('7', 10) + " " + Character.digit('f', 16) + " " + Character.digit('z', 10)
            + " " + Character.forDigit(11, 16) + " " + Character.isJavaIdentifierStart('$') + " "
            + Character.isJavaIdentifierPart('9') + " " + Character.isHighSurrogate('\ud83d') + " "
            + Character.isLowSurrogate('a') + " " + Character.toUpperCase('q') + " " + Character.isLetterOrDigit('_')
            + " " + (int) Character.MIN_VALUE;
    }

    static String listIterator(List<Integer> xs) {
        List<Integer> list = new ArrayList<>(xs);
        ListIterator<Integer> it = list.listIterator();
        while (it.hasNext()) {
            int v = it.next();
            if (v % 3 == 0) {
                it.remove();
            } else if (v % 3 == 1) {
                it.set(v * 10);
            } else {
                it.add(-v);
            }
        }
        StringBuilder back = new StringBuilder();
        ListIterator<Integer> rev = list.listIterator(list.size());
        while (rev.hasPrevious()) {
            int i = rev.previousIndex();
            back.append(i).append('=').append(rev.previous()).append(' ');
        }
        return list + " " + back.toString().trim();
    }

    static String iteratorRemove(List<String> words) {
        List<String> list = new ArrayList<>(words);
        Iterator<String> it = list.iterator();
        int kept = 0;
        while (it.hasNext()) {
            String w = it.next();
            if (w.length() < 3) {
                it.remove();
            } else {
                kept++;
            }
        }
        return list + " " + kept;
    }

    // java.math: BigInteger as System.Numerics.BigInteger (Java's divide/remainder truncate, mod is never
    // negative, intValue/longValue keep the low bits); BigDecimal as decimal, scale kept as Java keeps it.
    static String bigNumbers(String digits, long n) {
        BigInteger a = new BigInteger(digits);
        BigInteger b = BigInteger.valueOf(n);
        BigInteger f = BigInteger.ONE;
        for (int i = 2; i <= 25; i++) {
            f = f.multiply(BigInteger.valueOf(i));
        }
        BigDecimal p = new BigDecimal("1.50");
        BigDecimal q = p.add(new BigDecimal("1.25")).multiply(BigDecimal.valueOf(2));
        return a.add(b) + " " + a.subtract(b).negate() + " " + a.multiply(b) + " " + a.divide(b) + " "
            + a.remainder(b) + " " + b.negate().mod(BigInteger.valueOf(7)) + " " + a.negate().divide(b) + " " + f
            + " " + a.compareTo(b) + " " + f.intValue() + " " + f.longValue() + " " + a.pow(3) + " "
            + a.gcd(BigInteger.valueOf(36)) + " " + f.shiftRight(70) + " " + f.testBit(22) + " " + b.signum() + " "
            + BigInteger.TEN.modPow(BigInteger.valueOf(3), BigInteger.valueOf(7)) + " " + a.equals(new BigInteger(digits))
            + " " + q + " " + q.compareTo(p) + " " + p.multiply(new BigDecimal("2.0")).toPlainString() + " "
            + q.subtract(BigDecimal.TEN).negate() + " " + q.intValue() + " " + new BigDecimal("-0.125").abs();
    }

    // Exceptions and their .NET counterparts: thrown and caught clause by clause; a Java catch takes its
    // type's subclasses (NumberFormatException is an IllegalArgumentException) and not an unrelated type that
    // .NET derives from it (ArgumentOutOfRangeException is an ArgumentException).
    static int checkedValue(int i) {
        if (i < 0) {
            throw new IllegalArgumentException("negative " + i);
        }
        if (i == 0) {
            throw new IllegalStateException("zero");
        }
        if (i > 100) {
            throw new UnsupportedOperationException("too big");
        }
        if (i == 8) {
            throw new IndexOutOfBoundsException("eight");
        }
        if (i == 9) {
            throw new ArithmeticException("nine");
        }
        return i;
    }

    static String exceptions(int i, String s) {
        String out;
        try {
            out = "ok " + checkedValue(i);
        } catch (IllegalArgumentException e) {
            out = "argument " + e.getMessage();
        } catch (IllegalStateException e) {
            out = "state " + e.getMessage();
        } catch (UnsupportedOperationException e) {
            out = "unsupported " + e.getMessage();
        } catch (IndexOutOfBoundsException e) {
            out = "index " + e.getMessage();
        } catch (ArithmeticException e) {
            out = "arithmetic " + e.getMessage();
        }
        try {
            out += " parsed " + Integer.parseInt(s);
        } catch (IllegalArgumentException e) {
            out += " not a number";
        }
        try {
            out += " " + Long.parseLong(s);
        } catch (NumberFormatException e) {
            out += " nfe";
        }
        int[] xs = {1, 2, 3};
        try {
            out += " at " + xs[i];
        } catch (ArrayIndexOutOfBoundsException e) {
            out += " out of the array";
        }
        List<Integer> list = new ArrayList<>();
        try {
            out += " " + list.get(i);
        } catch (IndexOutOfBoundsException e) {
            out += " out of the list";
        }
        try {
            out += " " + (10 / (i - 1));
        } catch (ArithmeticException e) {
            out += " divided by zero";
        }
        String held = i > 50 ? null : s;
        try {
            out += " " + held.length();
        } catch (NullPointerException e) {
            out += " null";
        }
        try {
            Object o = s;
            out += " " + ((Integer) o);
        } catch (ClassCastException e) {
            out += " cast";
        } catch (RuntimeException e) {
            out += " runtime";
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        System.out.println("linkedList: " + linkedList());
        System.out.println("deque: " + deque());
        System.out.println("queue: " + queue());
        System.out.println("urlCodec: " + urlCodec("a b&c=d/é~*!'()"));
        System.out.println("calendars: " + calendars(1700000000123L));
        System.out.println("calendars: " + calendars(951782400000L));
        System.out.println("dates: " + dates(1700000000123L));
        System.out.println("zones: " + zones());
        System.out.println("format: " + format(42, 3.14159, "ab", true));
        System.out.println("format: " + format(-7, 2.5, "xyz", false));
        System.out.println("writers: " + writers(3, 3.14159, 42));
        System.out.println("writers: " + writers(1, -2.5, -7));
        System.out.println("regexWalks: " + regexWalks("ab12cd345e6"));
        System.out.println("regexWalks: " + regexWalks("xyz9"));
        System.out.println("arraysHelpers: " + arraysHelpers());
        System.out.println("collectionsHelpers: " + collectionsHelpers());
        System.out.println("characterClasses: " + characterClasses("aB3 \t?"));
        System.out.println("listIterator: " + listIterator(Arrays.asList(1, 2, 3, 4, 5, 6, 7)));
        System.out.println("iteratorRemove: " + iteratorRemove(Arrays.asList("a", "tree", "of", "words")));
        System.out.println("bigNumbers: " + bigNumbers("123456789012345678901234567890", 1234567L));
        System.out.println("bigNumbers: " + bigNumbers("-98765432109876543210", -97L));
        for (int i : new int[] {-3, 0, 1, 2, 8, 9, 101}) {
            System.out.println("exceptions: " + exceptions(i, i == 2 ? "42" : i == 9 ? "99999999999" : "x" + i));
        }
    }
}
