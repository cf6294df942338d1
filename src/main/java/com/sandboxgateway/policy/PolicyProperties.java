package com.sandboxgateway.policy;

import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The organisation's rules ({@code gateway.policy.org}), which teams may only narrow.
 *
 * @param org the organisation-wide policy, the ceiling for every team
 */
@ConfigurationProperties("gateway.policy")
public record PolicyProperties(@DefaultValue Org org) {

    /**
     * @param files limits and expiry of uploaded files
     * @param sanitization how data files are cleaned before they leave the company
     */
    public record Org(@DefaultValue Files files, @DefaultValue Sanitization sanitization) {
    }

    /**
     * @param maxUploadSize largest file accepted; larger uploads are refused while they stream
     * @param opaqueExtensions file extensions passed unchanged (still size-capped); any other
     *        extension than csv, tsv and jsonl is refused
     */
    public record Files(@DefaultValue("100MB") DataSize maxUploadSize,
                        @DefaultValue({"txt", "md", "pdf", "png", "jpg", "xlsx"}) List<String> opaqueExtensions) {
    }

    /**
     * @param pseudonymizationKey the HMAC key for pseudonyms, or {@code file:/path} to read it from a
     *        file; required when {@code pseudonymize-columns} is set. Never logged
     * @param dropColumns columns removed from every data file, matched ignoring case and whitespace
     * @param pseudonymizeColumns columns whose values are replaced by a keyed pseudonym
     * @param neutralizeFormulas prefix cells a spreadsheet would run as a formula
     * @param profiles named dataset profiles an upload can be held to with
     *        {@code X-Gateway-Dataset-Profile}
     */
    public record Sanitization(String pseudonymizationKey, @DefaultValue List<String> dropColumns,
                               @DefaultValue List<String> pseudonymizeColumns,
                               @DefaultValue("true") boolean neutralizeFormulas,
                               @DefaultValue Map<String, Profile> profiles) {
    }

    /** @param requiredColumns columns an upload held to this profile must have */
    public record Profile(@DefaultValue List<String> requiredColumns) {
    }
}
