package com.sandboxgateway.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one name, one per combination of tag values, each built and registered once. A request
 * then costs one map look-up instead of a builder, a sorted tag list and the registry's own look-up. Tag
 * values are bounded sets (routes, teams, statuses, codes), as for any meter.
 *
 * @param <M> the kind of meter
 */
public final class MeterFamily<M extends Meter> {

    private final String name;
    private final List<String> keys;
    private final Function<Tags, M> register;
    private final Map<List<String>, M> meters = new ConcurrentHashMap<>();

    private MeterFamily(String name, List<String> keys, Function<Tags, M> register) {
        this.name = name;
        this.keys = keys;
        this.register = register;
    }

    /**
     * Counters named {@code name}, tagged with {@code keys} in this order; a {@code null} description leaves it to
     * the {@code MetricCatalogue}.
     */
    public static MeterFamily<Counter> counters(MeterRegistry registry, String name, String description, String... keys) {
        return new MeterFamily<>(name, List.of(keys),
                tags -> Counter.builder(name).description(description).tags(tags).register(registry));
    }

    /** Timers named {@code name} publishing a histogram (its buckets are the {@code MetricCatalogue}'s), tagged with {@code keys}. */
    public static MeterFamily<Timer> histogramTimers(MeterRegistry registry, String name, String description, String... keys) {
        return new MeterFamily<>(name, List.of(keys), tags -> Timer.builder(name).description(description).tags(tags)
                .publishPercentileHistogram().register(registry));
    }

    /** The meter with these tag values, one for each key, in the keys' order. */
    public M with(String... values) {
        if (values.length != keys.size()) {
            throw new IllegalArgumentException(name + " takes the tags " + keys + ", given " + Arrays.toString(values));
        }
        return meters.computeIfAbsent(List.of(values), this::register);
    }

    private M register(List<String> values) {
        String[] pairs = new String[2 * keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            pairs[2 * i] = keys.get(i);
            pairs[2 * i + 1] = values.get(i);
        }
        return register.apply(Tags.of(pairs));
    }
}
