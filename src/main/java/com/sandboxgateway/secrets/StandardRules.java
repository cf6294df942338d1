package com.sandboxgateway.secrets;

import java.util.ArrayList;
import java.util.List;

/**
 * Every rule, in order of precedence: when two findings overlap, the one from the earlier rule stands.
 * Specific formats come first (a key inside a PEM block, a JWT assigned to {@code token:}, a password
 * in a JDBC URL), the generic assignment rule after them, personal data last, with payment cards and
 * IBANs before phone numbers, whose shapes are looser.
 */
final class StandardRules {

    private StandardRules() {
    }

    static List<Rule> inPrecedenceOrder() {
        List<Rule> rules = new ArrayList<>();
        rules.add(new PrivateKeyRule());
        rules.add(new JwtRule());
        rules.addAll(VendorTokens.all());
        rules.add(new AwsSecretKeyRule());
        rules.add(new JdbcPasswordRule());
        rules.add(new UrlPasswordRule());
        rules.add(new SecretAssignmentRule());
        rules.add(new PaymentCardRule());
        rules.add(new IbanRule());
        rules.add(new SsnRule());
        rules.add(new EmailRule());
        rules.add(new PhoneRule());
        return List.copyOf(rules);
    }
}
