package com.sandboxgateway.budget;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The price table spend is estimated with ({@code gateway.pricing}), in USD.
 *
 * @param models token prices; a model is priced by the entry with the longest matching prefix
 * @param unknownModelInputPerMillion the input price of a model no entry matches (high: caps then err on the safe side)
 * @param unknownModelOutputPerMillion the output price of a model no entry matches
 * @param containerSessions the price of one container session per memory tier ({@code 1g}, {@code 4g}, ...)
 */
@ConfigurationProperties("gateway.pricing")
public record PricingProperties(@DefaultValue List<ModelPrice> models, @DefaultValue("15") BigDecimal unknownModelInputPerMillion,
                                @DefaultValue("60") BigDecimal unknownModelOutputPerMillion,
                                @DefaultValue Map<String, BigDecimal> containerSessions) {

    /**
     * @param prefix matches model names that start with it ({@code gpt-4.1} matches {@code gpt-4.1-2025-04-14})
     * @param inputPerMillion USD per million input tokens
     * @param outputPerMillion USD per million output tokens
     */
    public record ModelPrice(String prefix, BigDecimal inputPerMillion, BigDecimal outputPerMillion) {
    }
}
