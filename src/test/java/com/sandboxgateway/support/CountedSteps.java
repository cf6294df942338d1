package com.sandboxgateway.support;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The work counter of {@link StepCountingLoader}: classes it loads call {@link #tick()} at every
 * branch (so every loop iteration counts) and, instead of the {@link String} and regex methods that
 * scan text, the methods below, which do the same and count the characters the JDK's code looks at
 * ({@code indexOf} up to its hit, a regex through a {@link CharSequence} that counts each
 * {@code charAt}). A count, unlike a clock, is the same on a busy machine as on an idle one.
 *
 * <p>One counter for the JVM: count one thing at a time.
 */
public final class CountedSteps {

    private static long steps;

    private CountedSteps() {
    }

    /** Runs {@code work} and answers how many steps it took. */
    public static long of(Runnable work) {
        steps = 0;
        work.run();
        return steps;
    }

    public static void tick() {
        steps++;
    }

    private static void add(long n) {
        steps += Math.max(1, n);
    }

    /** Characters from {@code from} to the hit (and the needle), or to {@code end} without one. */
    private static int scanned(int hit, int from, int end, int needle) {
        int start = Math.max(0, from);
        return (hit < 0 ? end - start : hit - start) + needle;
    }

    public static int indexOf(String s, int ch) {
        int hit = s.indexOf(ch);
        add(scanned(hit, 0, s.length(), 1));
        return hit;
    }

    public static int indexOf(String s, int ch, int from) {
        int hit = s.indexOf(ch, from);
        add(scanned(hit, from, s.length(), 1));
        return hit;
    }

    public static int indexOf(String s, int ch, int from, int to) {
        int hit = s.indexOf(ch, from, to);
        add(scanned(hit, from, Math.min(to, s.length()), 1));
        return hit;
    }

    public static int indexOf(String s, String needle) {
        int hit = s.indexOf(needle);
        add(scanned(hit, 0, s.length(), needle.length()));
        return hit;
    }

    public static int indexOf(String s, String needle, int from) {
        int hit = s.indexOf(needle, from);
        add(scanned(hit, from, s.length(), needle.length()));
        return hit;
    }

    public static int indexOf(String s, String needle, int from, int to) {
        int hit = s.indexOf(needle, from, to);
        add(scanned(hit, from, Math.min(to, s.length()), needle.length()));
        return hit;
    }

    public static int lastIndexOf(String s, int ch) {
        int hit = s.lastIndexOf(ch);
        add(s.length() - Math.max(hit, 0));
        return hit;
    }

    public static boolean contains(String s, CharSequence needle) {
        return indexOf(s, needle.toString()) >= 0;
    }

    public static boolean startsWith(String s, String prefix) {
        add(prefix.length());
        return s.startsWith(prefix);
    }

    public static boolean startsWith(String s, String prefix, int at) {
        add(prefix.length());
        return s.startsWith(prefix, at);
    }

    public static boolean endsWith(String s, String suffix) {
        add(suffix.length());
        return s.endsWith(suffix);
    }

    public static boolean regionMatches(String s, int at, String other, int otherAt, int length) {
        add(length);
        return s.regionMatches(at, other, otherAt, length);
    }

    public static boolean equals(String s, Object other) {
        add(other instanceof String o ? Math.min(s.length(), o.length()) : 1);
        return s.equals(other);
    }

    public static boolean equalsIgnoreCase(String s, String other) {
        add(other == null ? 1 : Math.min(s.length(), other.length()));
        return s.equalsIgnoreCase(other);
    }

    public static String substring(String s, int from) {
        add(s.length() - from);
        return s.substring(from);
    }

    public static String substring(String s, int from, int to) {
        add(to - from);
        return s.substring(from, to);
    }

    public static String strip(String s) {
        add(s.length());
        return s.strip();
    }

    public static String stripLeading(String s) {
        add(s.length());
        return s.stripLeading();
    }

    public static String stripTrailing(String s) {
        add(s.length());
        return s.stripTrailing();
    }

    public static String trim(String s) {
        add(s.length());
        return s.trim();
    }

    public static boolean isBlank(String s) {
        add(s.length());
        return s.isBlank();
    }

    public static String toLowerCase(String s) {
        add(s.length());
        return s.toLowerCase();
    }

    public static String toLowerCase(String s, Locale locale) {
        add(s.length());
        return s.toLowerCase(locale);
    }

    public static String toUpperCase(String s, Locale locale) {
        add(s.length());
        return s.toUpperCase(locale);
    }

    public static char[] toCharArray(String s) {
        add(s.length());
        return s.toCharArray();
    }

    public static String replace(String s, char from, char to) {
        add(s.length());
        return s.replace(from, to);
    }

    public static String replace(String s, CharSequence from, CharSequence to) {
        add(s.length());
        return s.replace(from, to);
    }

    public static String[] split(String s, String regex) {
        return split(s, regex, 0);
    }

    public static String[] split(String s, String regex, int limit) {
        return Pattern.compile(regex).split(new CountingChars(s), limit);
    }

    public static boolean matches(String s, String regex) {
        return Pattern.compile(regex).matcher(new CountingChars(s)).matches();
    }

    public static String replaceAll(String s, String regex, String replacement) {
        return Pattern.compile(regex).matcher(new CountingChars(s)).replaceAll(replacement);
    }

    public static String replaceFirst(String s, String regex, String replacement) {
        return Pattern.compile(regex).matcher(new CountingChars(s)).replaceFirst(replacement);
    }

    public static Matcher matcher(Pattern pattern, CharSequence text) {
        return pattern.matcher(new CountingChars(text));
    }

    public static String[] split(Pattern pattern, CharSequence text) {
        return pattern.split(new CountingChars(text));
    }

    public static String normalize(CharSequence text, Normalizer.Form form) {
        add(text.length());
        return Normalizer.normalize(text, form);
    }

    /** Text whose every {@code charAt} is a step: what a regex engine reads, it reads here. */
    private record CountingChars(CharSequence text) implements CharSequence {

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            steps++;
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            add(end - start);
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            add(text.length());
            return text.toString();
        }
    }
}
