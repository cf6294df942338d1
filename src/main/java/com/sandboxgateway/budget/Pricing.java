package com.sandboxgateway.budget;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Prices usage in millionths of a dollar. Prices are USD per million tokens, so a token costs exactly
 * its price in micro-dollars; rounding happens once, upwards, per charge.
 */
final class Pricing {

    private static final BigDecimal MICROS = BigDecimal.valueOf(1_000_000);

    private final List<PricingProperties.ModelPrice> models;
    private final PricingProperties.ModelPrice unknownModel;
    private final Map<String, BigDecimal> containerSessions;

    Pricing(PricingProperties properties) {
        for (PricingProperties.ModelPrice model : properties.models()) {
            if (model.prefix() == null || model.inputPerMillion() == null || model.outputPerMillion() == null) {
                throw new IllegalStateException("gateway.pricing.models entries need prefix, input-per-million and output-per-million");
            }
        }
        this.models = properties.models().stream()
                .sorted(Comparator.comparingInt((PricingProperties.ModelPrice m) -> m.prefix().length()).reversed())
                .toList();
        this.unknownModel = new PricingProperties.ModelPrice("", properties.unknownModelInputPerMillion(),
                properties.unknownModelOutputPerMillion());
        this.containerSessions = Map.copyOf(properties.containerSessions());
    }

    long tokensMicros(String model, long inputTokens, long outputTokens) {
        PricingProperties.ModelPrice price = models.stream()
                .filter(m -> model != null && model.startsWith(m.prefix()))
                .findFirst().orElse(unknownModel);
        return price.inputPerMillion().multiply(BigDecimal.valueOf(inputTokens))
                .add(price.outputPerMillion().multiply(BigDecimal.valueOf(outputTokens)))
                .setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** A container session of a tier; a tier missing from the table costs as much as the dearest one listed. */
    long containerMicros(String tier) {
        BigDecimal usd = containerSessions.get(tier);
        if (usd == null) {
            usd = containerSessions.values().stream().max(BigDecimal::compareTo).orElse(BigDecimal.ZERO);
        }
        return usd.multiply(MICROS).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    static long micros(BigDecimal usd) {
        return usd.multiply(MICROS).setScale(0, RoundingMode.FLOOR).longValueExact();
    }
}
