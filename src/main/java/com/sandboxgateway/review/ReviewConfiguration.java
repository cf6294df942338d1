package com.sandboxgateway.review;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Builds the detectors once, at startup, from the standard rules and the operator's files: a file that
 * is missing or invalid stops the gateway with a message naming the setting, the file and the rule.
 */
@Configuration(proxyBeanMethods = false)
class ReviewConfiguration {

    @Bean
    InjectionDetector injectionDetector(ReviewProperties review) {
        Path file = review.injectionRules();
        InjectionRules rules = file == null ? InjectionRules.standard()
                : load("gateway.review.injection-rules", file, () -> InjectionRules.standard().with(InjectionRules.load(file)));
        return InjectionDetector.fromRules(rules);
    }

    @Bean
    CodeRiskAnalyzer codeRiskAnalyzer(ReviewProperties review) {
        Path file = review.codeRules();
        CodeRules rules = file == null ? CodeRules.standard()
                : load("gateway.review.code-rules", file, () -> CodeRules.standard().with(CodeRules.load(file)));
        return CodeRiskAnalyzer.fromRules(rules);
    }

    private static <T> T load(String key, Path file, Supplier<T> loader) {
        if (!Files.isReadable(file)) {
            throw new IllegalStateException(key + " names " + file + ", which is not a readable file");
        }
        try {
            return loader.get();
        } catch (InvalidRulesException e) {
            throw new IllegalStateException(key + ": the rule file is invalid: " + e.getMessage(), e);
        }
    }
}
