package com.sandboxgateway.review;

import java.util.List;

import com.sandboxgateway.review.PythonToken.Kind;

/**
 * The value of constant numeric expressions in code, for the size heuristics: {@code 10**9},
 * {@code 1 << 30}, {@code 1_000_000 * 8}, {@code (2**20)}. Anything else (a name, a call) is not a
 * constant and is skipped, so {@code np.zeros((n, 100_000))} counts {@code 100000} only.
 */
final class ConstantSize {

    private final List<PythonToken> tokens;
    private int at;

    private ConstantSize(List<PythonToken> tokens, int from) {
        this.tokens = tokens;
        this.at = from;
    }

    /** The product of every constant expression in {@code tokens[from, to)}, 1 when there is none. */
    static double productOf(List<PythonToken> tokens, int from, int to) {
        double product = 1;
        for (int i = from; i < to; ) {
            ConstantSize parser = new ConstantSize(tokens.subList(0, to), i);
            double value = parser.expression();
            if (!Double.isNaN(value) && parser.at > i) {
                product *= value;
                i = parser.at;
            } else {
                i++;
            }
        }
        return product;
    }

    /** The constant expression starting at {@code from}, or NaN. */
    static double valueAt(List<PythonToken> tokens, int from) {
        return new ConstantSize(tokens, from).expression();
    }

    private double expression() {
        double value = power();
        while (!Double.isNaN(value) && at < tokens.size() && (tokens.get(at).isOp("*") || tokens.get(at).isOp("<<"))) {
            boolean shift = tokens.get(at).isOp("<<");
            int mark = at++;
            double right = power();
            if (Double.isNaN(right)) {
                at = mark;
                break;
            }
            value = shift ? value * Math.pow(2, right) : value * right;
        }
        return value;
    }

    private double power() {
        double base = atom();
        if (!Double.isNaN(base) && at < tokens.size() && tokens.get(at).isOp("**")) {
            int mark = at++;
            double exponent = power();
            if (Double.isNaN(exponent)) {
                at = mark;
                return base;
            }
            return Math.pow(base, exponent);
        }
        return base;
    }

    private double atom() {
        if (at >= tokens.size()) {
            return Double.NaN;
        }
        PythonToken token = tokens.get(at);
        if (token.kind() == Kind.NUMBER) {
            at++;
            return number(token.text());
        }
        if (token.isOp("(")) {
            int mark = at++;
            double value = expression();
            if (!Double.isNaN(value) && at < tokens.size() && tokens.get(at).isOp(")")) {
                at++;
                return value;
            }
            at = mark;
        }
        return Double.NaN;
    }

    private static double number(String literal) {
        String text = literal.replace("_", "").toLowerCase(java.util.Locale.ROOT);
        try {
            if (text.startsWith("0x")) {
                return Long.parseLong(text.substring(2), 16);
            }
            if (text.startsWith("0o")) {
                return Long.parseLong(text.substring(2), 8);
            }
            if (text.startsWith("0b")) {
                return Long.parseLong(text.substring(2), 2);
            }
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
