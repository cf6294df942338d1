package com.sandboxgateway.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Asserts that work grows linearly with its input: the {@link CountedSteps} of inputs of n, 2n and 4n
 * characters. Linear work {@code a + b·n} at most doubles when n doubles; quadratic work quadruples.
 */
public final class LinearGrowth {

    /** Above 2 for the constant part's rounding, far below the 4 of quadratic work. */
    private static final double MAX_RATIO = 2.5;

    private LinearGrowth() {
    }

    /**
     * @param input the input of about n characters
     * @param work  what must be linear, run in classes a {@link StepCountingLoader} loaded
     */
    public static void assertLinear(String name, int n, IntFunction<String> input, Consumer<String> work) {
        long[] steps = new long[3];
        int[] lengths = new int[3];
        for (int i = 0; i < 3; i++) {
            String text = input.apply(n << i);
            lengths[i] = text.length();
            steps[i] = CountedSteps.of(() -> work.accept(text));
        }
        assertThat(steps[0]).as("%s: steps counted for %d characters", name, lengths[0]).isGreaterThanOrEqualTo(lengths[0]);
        for (int i = 1; i < 3; i++) {
            double ratio = (double) steps[i] / steps[i - 1];
            assertThat(ratio).as("%s: %d steps for %d characters, %d for %d", name,
                    steps[i - 1], lengths[i - 1], steps[i], lengths[i]).isLessThanOrEqualTo(MAX_RATIO);
        }
    }
}
