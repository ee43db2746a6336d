// Generated from docs/openapi.json by `npm run sdk:generate` (openapi-typescript): do not edit.
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers while the process is up.
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Answers 200 when the database answers a query; 503 when it does not, for a few seconds after its storage refused a write (disk full), or while the process drains before shutdown. A 200 reports the delivery lag (`deliveryLagSeconds`); a lag does not fail readiness.
         */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Request counts and latency by route and status, the outbox delivery lag by kind (`outbox_delivery_lag_seconds`), plus process metrics, in Prometheus text format. With `METRICS_TOKEN` set it requires `Authorization: Bearer <METRICS_TOKEN>` (401 `METRICS_TOKEN_REQUIRED` otherwise); without it, production answers 403 `METRICS_DISABLED` and staging answers anyone, without the Node.js version.
         */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server/users/{brandCode}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OAuth 2.0 authorization server metadata of a brand
         * @description RFC 8414 discovery for the brand’s issuer `{PUBLIC_BASE_URL}{BASE_PATH}/users/{brandCode}` (the `iss` of its access tokens): token endpoint, grants and client authentication methods. No token needed; cacheable for an hour.
         */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{brandCode}/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain or renew an access token
         * @description Spec §4.1 and §5. `grant_type=password` signs a user in (partners: `client_id=API`, `customerInterfaceId=8`, `userTypeId=4`); `grant_type=refresh_token` exchanges a refresh token for a new pair. Form body only; answers carry `Cache-Control: no-store`. Failures use `{error, error_description}` (RFC 6749 §5.2): 400 `invalid_request` / `unsupported_grant_type`, 401 `invalid_grant` / `invalid_client` / `unauthorized_client`, 429 `temporarily_unavailable` with `Retry-After` after repeated failures or past the request limits per address and per username (`RateLimit-Policy` and `RateLimit` name the limit).
         */
        post: operations["issueToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/documents/v1/{policyDocumentAccessGuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The customer's document page
         * @description The brand's HTML page of the policy: its facts and status, its documents by transaction and language with download links, the emergency number and the brand's contacts. Public (no bearer token): the link value is the key. It opens until the end of the cover plus `DOCUMENT_LINK_DAYS_AFTER_COVER` days (90 unless configured); after that the value answers 410 with the brand's contacts. A wrong or malformed value answers the same 404 page whatever it is. Requests are limited per client address (`RATE_LIMIT_DOCUMENT_LINK_PER_ADDRESS` per window; 429 with `Retry-After`).
         */
        get: operations["documentLinkPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/documents/v1/{policyDocumentAccessGuid}/{documentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One document through the customer link (PDF)
         * @description The PDF of one document listed on the page. Public (no bearer token): the link value is the key. It opens until the end of the cover plus `DOCUMENT_LINK_DAYS_AFTER_COVER` days (90 unless configured); after that the value answers 410 with the brand's contacts. A wrong or malformed value answers the same 404 page whatever it is. Requests are limited per client address (`RATE_LIMIT_DOCUMENT_LINK_PER_ADDRESS` per window; 429 with `Retry-After`).
         */
        get: operations["documentLinkFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/screening/v1/{value}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The traveller's hosted screening page
         * @description HTML for the traveller's browser, working without JavaScript: who answers (the traveller or a person they authorised), the questions, finishing, the result with a link back to the partner's `returnUrl`. Reading it changes nothing. Public (no bearer token): the link value is the key, bound to one quote and traveller. It opens until its `expiresAt`; after that, or once a newer link was made for the traveller, it answers 410. A value that opens nothing answers the same 404 page whatever it is. Requests are limited per client address (`RATE_LIMIT_SCREENING_LINK_PER_ADDRESS` per window; 429 with `Retry-After`).
         */
        get: operations["screeningPage"];
        put?: never;
        /**
         * A form of the hosted screening page
         * @description `application/x-www-form-urlencoded` (what the page's own form posts), or the same fields as a JSON object (what /docs "Try it out" sends): `step` (`who`, `answers`, `complete`), `csrf` (the form's token: an HMAC of the link and the step), and the step's fields. Calls the same start, answer and complete as the API; then 303 to the page. A wrong or missing token: 403 and nothing stored. Problems come back as the form with an error summary linked to each field (400). Public (no bearer token): the link value is the key, bound to one quote and traveller. It opens until its `expiresAt`; after that, or once a newer link was made for the traveller, it answers 410. A value that opens nothing answers the same 404 page whatever it is. Requests are limited per client address (`RATE_LIMIT_SCREENING_LINK_PER_ADDRESS` per window; 429 with `Retry-After`).
         */
        post: operations["screeningPageForm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/v1/{brandCode}/baseQuoteConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Quote configuration
         * @description Traveller, age, advance-purchase and duration limits and destination restrictions per home country, for one quote type. Answers carry `ETag` and `Cache-Control: private, max-age=<expirySeconds>`; `If-None-Match` with the ETag gets 304.
         */
        get: operations["getBaseQuoteConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/v1/{brandCode}/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Plan configuration by code
         * @description The version of plan `planCode` in force at `effectiveAt` (default today in the brand's time zone): 404 `UNKNOWN_PLAN_CODE` or `PLAN_NOT_SOLD`. Purchase terms reserved to partner groups are listed for the caller's own partner only (the token's); `partnerCode`, when sent, must be that partner: another partner's code answers 403 `PARTNER_NOT_ALLOWED`. Answers carry `ETag` and `Cache-Control: private, max-age=<expirySeconds>`; `If-None-Match` with the ETag gets 304.
         */
        get: operations["getPlanByCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/v1/{brandCode}/brands": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Brand content
         * @description Content items of the brand in `lang` (items missing in it, or an unknown `lang`, fall back to the brand's default language). Answers carry `ETag` and `Cache-Control: private, max-age=<expirySeconds>`; `If-None-Match` with the ETag gets 304.
         */
        get: operations["getBrandContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/v1/{brandCode}/brands/{brandId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Brand content by id
         * @description Content of the brand with internal id `brandId` (1 brandau, 2 brandnz, 3 directau, 4 nomad); `brandCode` must be valid but is ignored. Unknown id: 404 `UNKNOWN_BRAND_ID`. Answers carry `ETag` and `Cache-Control: private, max-age=<expirySeconds>`; `If-None-Match` with the ETag gets 304.
         */
        get: operations["getBrandContentById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/v1/{brandCode}/features/{insuranceContractId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Feature switches
         * @description Feature switches of an insurance contract of this brand; another brand's or an unknown contract: 404 `UNKNOWN_INSURANCE_CONTRACT`. Answers carry `ETag` and `Cache-Control: private, max-age=<expirySeconds>`; `If-None-Match` with the ETag gets 304.
         */
        get: operations["getFeatureSwitches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/v2/{brandCode}/insuranceContract/{insuranceContractId}/pdsSummary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * PDS metadata
         * @description Describes the PDS document `/pds` returns for the same selection: language (fallback: default), home country, province, plan version; the most specific document wins. Answers carry `ETag` and `Cache-Control: private, max-age=<brand's expirySeconds>`; `If-None-Match` with the ETag gets 304.
         */
        get: operations["getPdsSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/v2/{brandCode}/insuranceContract/{insuranceContractId}/pds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * PDS document (PDF)
         * @description The product disclosure statement as `application/pdf`, selected as `pdsSummary` selects it. Rendered from catalogue content at import. Answers carry `ETag` and `Cache-Control: private, max-age=<brand's expirySeconds>`; `If-None-Match` with the ETag gets 304.
         */
        get: operations["getPds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quotes/v2/{brandCode}/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create and evaluate a quote
         * @description Validates, prices and stores a quote owned by the caller's partner. With `input.skipPersistence: true` it is priced but not stored and has no `id`. Server-owned fields in the body are ignored. Validation problems do not fail the call: the quote answers 200 with `validation.isValid: false` and one Notification per problem (`title` is `error` or `warning`); only wrong JSON types are a 400. A card number anywhere in the body is refused with 400 `CARD_NUMBER_REFUSED` and never stored.
         */
        post: operations["createQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quotes/v2/{brandCode}/quote/{quoteId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a quote
         * @description Returns the stored quote (spec §4.3). A quote of another partner, or an unknown id, answers 404 `QUOTE_NOT_FOUND`.
         */
        get: operations["getQuote"];
        /**
         * Change and re-evaluate a quote
         * @description Re-evaluates a stored quote with a changed Quote (plan, options, holders, stage). `hasConfigChanged` is true when the catalogue or rates that priced it before are no longer in force. A purchased quote, or one whose purchase is running, answers 409. Validation problems do not fail the call: the quote answers 200 with `validation.isValid: false` and one Notification per problem (`title` is `error` or `warning`); only wrong JSON types are a 400. A card number anywhere in the body is refused with 400 `CARD_NUMBER_REFUSED` and never stored.
         */
        put: operations["updateQuote"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a traveller's screening
         * @description IN_PROGRESS with the next questions, COMPLETED with the result, or STALE when the quote's destinations, days of cover, plan or the traveller's date of birth changed since (start again). 404 `SCREENING_NOT_FOUND` before a start. A quote of another partner, or an unknown id, answers 404 `QUOTE_NOT_FOUND`; an unknown traveller 404 `TRAVELLER_NOT_FOUND`.
         */
        get: operations["getScreening"];
        put?: never;
        /**
         * Start a traveller's medical screening
         * @description Starts the screening of the traveller `guid` (a `policyHolders[].guid`), answered by `authorizedPerson`; replaces an earlier one (a STALE screening must be started again). 422 `PLAN_NOT_CHOSEN`, `SCREENING_NOT_OFFERED` (the plan screens no conditions), `NOT_OPTED_IN_FOR_SCREENING`; 409 `QUOTE_PURCHASED`/`QUOTE_PURCHASE_INITIATED`. A quote of another partner, or an unknown id, answers 404 `QUOTE_NOT_FOUND`; an unknown traveller 404 `TRAVELLER_NOT_FOUND`.
         */
        post: operations["startScreening"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer screening questions
         * @description Adds answers and returns the next questions. A refused answer is a 400 whose Notification has `code` `ANSWER_<problem>` (`ANSWER_UNKNOWN_QUESTION`, `ANSWER_NOT_ASKED`, `ANSWER_UNKNOWN_CHOICE`, `ANSWER_ONE_CHOICE_ONLY`, `ANSWER_NO_CHOICE`) and `property` `answers[<index>].questionId` or `answers[<index>].choiceCodes` (the answer's place in the request; `answers` for one stored earlier), never the question id (a follow-up's names its condition) nor the answer. 409 `SCREENING_NOT_IN_PROGRESS` once completed or stale. Safe to repeat without `Idempotency-Key` (none is honoured: a kept answer would store health data in clear): answering a question again replaces its answer, completing again answers the same result. A quote of another partner, or an unknown id, answers 404 `QUOTE_NOT_FOUND`; an unknown traveller 404 `TRAVELLER_NOT_FOUND`.
         */
        post: operations["answerScreening"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete the screening and assess it
         * @description Assesses the answers: `result` with `tamisReferenceNumber`, outcome per traveller and condition, score, medical premium and excess (major units). 409 `SCREENING_INCOMPLETE` while questions remain. Safe to repeat without `Idempotency-Key` (none is honoured: a kept answer would store health data in clear): answering a question again replaces its answer, completing again answers the same result. A quote of another partner, or an unknown id, answers 404 `QUOTE_NOT_FOUND`; an unknown traveller 404 `TRAVELLER_NOT_FOUND`.
         */
        post: operations["completeScreening"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quotes/v2/{brandCode}/quote/{quoteId}/travellers/{guid}/screening/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make the traveller a link to the hosted screening page
         * @description A link to the hosted questionnaire (`url`, public, HTML) for this traveller only: a random 256-bit value, stored only as its hash, expiring at `expiresAt` (`SCREENING_LINK_HOURS` after now, never past the start of the departure day, UTC). Making a new link revokes the traveller's earlier ones (410). It does not start the screening: the page asks who answers (the traveller or a person they authorised) and starts it. Send the traveller to `url`; they come back to `returnUrl` with `quoteId`, `travellerGuid` and `screeningStatus` in its query; then read the screening or refresh the quote. 400 `INVALID_RETURN_URL`; the same 4xx as a start (422 `PLAN_NOT_CHOSEN`, `SCREENING_NOT_OFFERED`, `NOT_OPTED_IN_FOR_SCREENING`; 409 on a purchased quote). A quote of another partner, or an unknown id, answers 404 `QUOTE_NOT_FOUND`; an unknown traveller 404 `TRAVELLER_NOT_FOUND`.
         */
        post: operations["createScreeningLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Policy summary
         * @description The policy as it stands after its latest transaction: plan, travellers, dates (UTC and local), money. Only the partner that sold the policy can read it. 404 `POLICY_NOT_FOUND` when the number is unknown, belongs to another partner, or was sold under another brand than `{brandCode}` (the three are not told apart).
         */
        get: operations["getPolicySummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/details": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Policy transaction details
         * @description Every transaction of the policy (purchase, amendments, cancellation), oldest first, as a JSON array. Same visibility as the summary. 404 `POLICY_NOT_FOUND` when the number is unknown, belongs to another partner, or was sold under another brand than `{brandCode}` (the three are not told apart).
         */
        get: operations["getPolicyDetails"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Policy documents
         * @description The documents of every transaction of the policy: a certificate of insurance for the purchase and each amendment, a cancellation notice for a cancellation, one per language the brand offers. A document is rendered once and kept: fetching it again answers the same bytes. Same visibility as the policy summary. 404 `POLICY_NOT_FOUND` when the number is unknown, belongs to another partner, or was sold under another brand than `{brandCode}` (the three are not told apart).
         */
        get: operations["listPolicyDocuments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/documents/{documentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One policy document (PDF)
         * @description The PDF of one document of the list, byte for byte as first rendered. 404 `POLICY_NOT_FOUND` when the number is unknown, belongs to another partner, or was sold under another brand than `{brandCode}` (the three are not told apart). 404 `DOCUMENT_NOT_FOUND` when the id is not one of this policy's documents.
         */
        get: operations["getPolicyDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/documents/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the policy documents again
         * @description Queues an e-mail with the documents of the policy's latest transaction (certificate or cancellation notice, and the PDS) and the customer's document link, to the primary traveller or to `emailAddress`. Answers 202 once recorded; the delivery worker sends it (at least once, retried with back-off). Each request queues a new e-mail, unless it repeats an `Idempotency-Key` (then the first answer is replayed). At most `DOCUMENT_RESENDS_PER_POLICY_PER_DAY` (5) resends per policy per UTC day and `DOCUMENT_RESENDS_PER_PARTNER_PER_HOUR` (60) per partner per UTC hour: past either, 429 `RATE_LIMITED` with `Retry-After` (nothing queued). Each resend is recorded with the user who asked. 404 `POLICY_NOT_FOUND` when the number is unknown, belongs to another partner, or was sold under another brand than `{brandCode}` (the three are not told apart).
         */
        post: operations["sendPolicyDocuments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quotes/v2/{brandCode}/purchase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Buy a stored quote
         * @description Buys the stored quote `quote.id` with a tokenised card, or with `paymentMethod: ON_ACCOUNT` on the partner's account (partners with `isOnAccountPurchaseEnabled`, read per request, else 403 `ON_ACCOUNT_NOT_ENABLED`; no card token, else 400 `CARD_TOKEN_NOT_ACCEPTED`): checks it is ready (valid, priced, plan chosen, stage DETAILS or later, every purchase term agreed), authorises the server's price of the chosen plan, issues the policy and captures. A quote that is not ready, a declined card or a gateway failure answer 200 with `validation.isValid: false` and Notifications (nothing charged). A 3-D Secure challenge answers `paymentResult: THREEDS_CHALLENGE_REQUIRED` with `threeDSResponseInfo`; call again with `threeDSRequestInfo` once the cardholder answered. Honours `Idempotency-Key` (per partner). 404 `QUOTE_NOT_FOUND` for another partner's or an unknown quote; 409 `QUOTE_PURCHASED` once bought, `PURCHASE_IN_PROGRESS` while another purchase of it runs. A card number anywhere in the body is refused with 400 `CARD_NUMBER_REFUSED`.
         */
        post: operations["purchaseQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quotes/v2/{brandCode}/quote/{quoteId}/referral/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw a quote's referral
         * @description Extension (docs/api-contract.md, "Referrals"): withdraws the quote's referral while it waits for an underwriter (REFERRED or INFORMATION_REQUESTED); the quote then cannot be bought as it is. Answers the referral, now WITHDRAWN. 409 `REFERRAL_NOT_OPEN` when none waits; a quote of another partner answers 404 `QUOTE_NOT_FOUND`.
         */
        post: operations["withdrawQuoteReferral"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/amendments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price an amendment of a policy
         * @description The policy’s new trip, travellers and options as a QuoteInput (validated like a quote), priced at today’s rates and compared part by part with what the policy has paid: `difference.transactionAmount` is positive when the customer pays, negative when refunded. Nothing changes until it is confirmed (before `expiresAt`). What may not change is refused with Notifications in a 200 with `validation.isValid: false` (no `id`: nothing is kept). 404 `POLICY_NOT_FOUND` unless the caller’s partner sold the policy under `{brandCode}`; 409 `POLICY_CANCELLED` once it is cancelled.
         */
        post: operations["previewAmendment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/cancellations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price the cancellation of a policy
         * @description The refund the policy would get if cancelled from `effectiveDate` (default today in the policy’s zone), with its basis: `COOLING_OFF` (everything back), `PRO_RATA` (the unused cover, less any cancellation fee) or `NONE`, per the brand’s rules. Nothing changes until it is confirmed (before `expiresAt`). 404 `POLICY_NOT_FOUND` unless the caller’s partner sold the policy under `{brandCode}`; 409 `POLICY_CANCELLED` once it is cancelled.
         */
        post: operations["previewCancellation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/amendments/{amendmentId}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a priced amendment
         * @description Applies the preview: a new `Amendment` transaction (next sequence number) and the charge (`cardToken`, 3-D Secure exactly as in a purchase: answer a challenge by calling again with `threeDSRequestInfo`) or the refund to the policy’s own card; a policy bought on account is charged to, or credited on, the partner’s account (no card; one sent is 400 `CARD_TOKEN_NOT_ACCEPTED`). A declined card answers 200 with `validation.isValid: false`; the preview may be confirmed again with another card. Requires `Idempotency-Key` (400 `IDEMPOTENCY_KEY_REQUIRED`): a retry replays the answer. 409 `AMENDMENT_EXPIRED`/`CANCELLATION_EXPIRED` after `expiresAt`, `…_STALE` when the policy changed since the preview, `POLICY_CHANGE_IN_PROGRESS` while another change of the policy is being confirmed, `…_ALREADY_CONFIRMED`. 404 `POLICY_NOT_FOUND` unless the caller’s partner sold the policy under `{brandCode}`; 409 `POLICY_CANCELLED` once it is cancelled.
         */
        post: operations["confirmAmendment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/cancellations/{cancellationId}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a policy as previewed
         * @description Refunds the previewed amount to the policy’s own card (through the gateway, never more than was captured), writes the `Cancellation` transaction and cancels the policy (`policyStatus` `Cancelled`). The body is optional. A card that refuses the refund answers 200 with `validation.isValid: false` (`REFUND_DECLINED`) and changes nothing. A gateway outage is retried by recovery (`IN_PROGRESS`) up to a bound; a refund that ends with only a part refunded cancels with that part booked (`REFUND_INCOMPLETE`, an operator pays the rest). Requires `Idempotency-Key` (400 `IDEMPOTENCY_KEY_REQUIRED`): a retry replays the answer. 409 `AMENDMENT_EXPIRED`/`CANCELLATION_EXPIRED` after `expiresAt`, `…_STALE` when the policy changed since the preview, `POLICY_CHANGE_IN_PROGRESS` while another change of the policy is being confirmed, `…_ALREADY_CONFIRMED`. 404 `POLICY_NOT_FOUND` unless the caller’s partner sold the policy under `{brandCode}`; 409 `POLICY_CANCELLED` once it is cancelled.
         */
        post: operations["confirmCancellation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/amendments/{amendmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An amendment by id
         * @description The amendment as previewed, with its `status` now. 404 `AMENDMENT_NOT_FOUND` for an unknown id or another policy’s. 404 `POLICY_NOT_FOUND` unless the caller’s partner sold the policy under `{brandCode}`; 409 `POLICY_CANCELLED` once it is cancelled.
         */
        get: operations["getAmendment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/v1/{brandCode}/policies/{policyNumber}/cancellations/{cancellationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A cancellation by id
         * @description The cancellation as previewed, with its `status` now. 404 `CANCELLATION_NOT_FOUND` for an unknown id or another policy’s. 404 `POLICY_NOT_FOUND` unless the caller’s partner sold the policy under `{brandCode}`; 409 `POLICY_CANCELLED` once it is cancelled.
         */
        get: operations["getCancellation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Webhook endpoints
         * @description Every endpoint of this partner under this brand (deleted ones not), oldest first; never their secrets.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Registers an endpoint that receives the events of this partner and brand, signed per Standard Webhooks. The answer carries the signing `secret`, shown this once. At most 20 endpoints per brand (409 `WEBHOOK_LIMIT_REACHED`). 400 `WEBHOOK_URL_REFUSED` (property `url`) for a URL webhooks may not be sent to.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook endpoint
         * @description The endpoint, with why it is disabled and since when it fails, if so. 404 `WEBHOOK_NOT_FOUND` when the id is unknown, deleted, or another partner’s or brand’s (not told apart).
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Nothing more is delivered to it; deliveries already recorded stay visible on the events. 404 `WEBHOOK_NOT_FOUND` when the id is unknown, deleted, or another partner’s or brand’s (not told apart).
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Changes the URL (checked as at registration), the event types, the description, or enables or disables it. Re-enabling clears `disabledReason` and `failingSince`; events missed meanwhile can be redelivered. 404 `WEBHOOK_NOT_FOUND` when the id is unknown, deleted, or another partner’s or brand’s (not told apart).
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/partners/v1/{brandCode}/webhooks/{webhookId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description A new secret, shown once. Until `previousSecretExpiresAt` (default 24 h, at most 7 days) every delivery carries two signatures, one per secret, so a receiver verifies with either while it switches. 404 `WEBHOOK_NOT_FOUND` when the id is unknown, deleted, or another partner’s or brand’s (not told apart).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/webhooks/{webhookId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Records a `webhook.test` event delivered to this endpoint only, like any other (signed, retried); follow it with GET …/events/{eventId}. At most `WEBHOOK_TEST_EVENTS_PER_PARTNER_PER_HOUR` (60) test events per partner per UTC hour: past it, 429 `RATE_LIMITED` with `Retry-After` (nothing recorded). 409 `WEBHOOK_DISABLED` when the endpoint is disabled. 404 `WEBHOOK_NOT_FOUND` when the id is unknown, deleted, or another partner’s or brand’s (not told apart).
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event feed
         * @description The partner's published events under the brand, in feed order (the order they were published, which is the order they committed): a pull alternative to webhooks. Page with `after` = the last id of the previous page until `hasMore` is false; poll again later with the last id you hold. A committed event never appears before one you have already read. 404 `EVENT_NOT_FOUND` (property `after`) when `after` is not an event of this feed.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One event and its deliveries
         * @description The event as every delivery sends it, and per webhook endpoint its delivery state and every attempt (time, status code, latency, error). 404 `EVENT_NOT_FOUND` when the id is unknown, is another partner’s, or was recorded under another brand than `{brandCode}` (not told apart).
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/events/{eventId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver one event
         * @description Queues the event's deliveries, each due now from attempt 1, with the same `webhook-id`: a delivery that failed for good, or one your receiver lost, comes again. Without `webhookId`: every delivery the event has, plus every enabled endpoint subscribed to its type that has none (missed while disabled, registered or subscribed later). With `webhookId`: that endpoint, whether or not it had a delivery and whatever its event types (a `webhook.test` event only to its own endpoint). Answers 202 with how many were queued. Each delivery queued counts against the partner’s `WEBHOOK_REDELIVERIES_PER_PARTNER_PER_HOUR` (2000) per UTC hour: a request that does not fit in what is left is 429 `RATE_LIMITED` with `Retry-After` and queues nothing. 404 `EVENT_NOT_FOUND` when the id is unknown, is another partner’s, or was recorded under another brand than `{brandCode}` (not told apart). 404 `WEBHOOK_NOT_FOUND` when `webhookId` is not a live endpoint of yours under the brand (or another endpoint's test event); 409 `WEBHOOK_DISABLED` when it is disabled.
         */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/events/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver events of a time range
         * @description Queues the deliveries of every published event that happened in [`from`, `to`): with `failedOnly` only those that failed for good; otherwise what one event's redelivery without `webhookId` queues (its deliveries, plus each enabled endpoint subscribed to its type that missed it). `webhookId` restricts either to that endpoint (only the types it subscribes to). Answers 202 with how many deliveries were queued. 400 `INVALID_TIME_RANGE` when `to` is not after `from`; 400 `REDELIVERY_RANGE_TOO_LARGE` when the range holds more than 1000 events or would queue more than 1000 deliveries (send shorter ranges, or name a `webhookId`). Each delivery queued counts against the partner’s `WEBHOOK_REDELIVERIES_PER_PARTNER_PER_HOUR` (2000) per UTC hour: a request that does not fit in what is left is 429 `RATE_LIMITED` with `Retry-After` and queues nothing. 404 `WEBHOOK_NOT_FOUND` when `webhookId` is not a live endpoint of yours under the brand; 409 `WEBHOOK_DISABLED` when it is disabled.
         */
        post: operations["redeliverEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/statements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your statement months
         * @description The months in which you had a policy transaction or made a payment under the brand, newest first, each `OPEN` (the current month) or `CLOSED`. Months are those of the brand’s time zone.
         */
        get: operations["listStatements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/partners/v1/{brandCode}/statements/{month}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One month’s statement (JSON, CSV or PDF tax invoice)
         * @description Every policy transaction of yours under the brand that committed in the month (brand’s time zone), with its money, the totals per payment method, and the on-account part: balance brought forward, charged, credited, payments received, due. A closed month never changes. `Accept: text/csv` answers CSV, `Accept: application/pdf` the tax invoice of the on-account part. 400 `INVALID_STATEMENT_MONTH` when `{month}` is not `yyyy-mm`; 400 `STATEMENT_MONTH_IN_FUTURE` when it has not begun in the brand’s time zone; 404 `STATEMENT_NOT_FOUND` for a past month in which you had no transaction and made no payment under the brand (property `month` in each).
         */
        get: operations["getStatement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "policy.issued": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A purchase issued a policy.
         * @description A purchase issued a policy. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-policy.issued"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "policy.amended": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An amendment was applied.
         * @description An amendment was applied. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-policy.amended"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "policy.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The policy was cancelled.
         * @description The policy was cancelled. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-policy.cancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.captured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A purchase's or an amendment's charge was captured.
         * @description A purchase's or an amendment's charge was captured. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-payment.captured"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A change's refund went back to the policy's payments.
         * @description A change's refund went back to the policy's payments. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-payment.refunded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "purchase.declined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A purchase was declined by the card issuer.
         * @description A purchase was declined by the card issuer. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-purchase.declined"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "documents.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A transaction's documents were e-mailed.
         * @description A transaction's documents were e-mailed. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-documents.sent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "quote.referred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A quote was referred to an underwriter: it cannot be bought until approved.
         * @description A quote was referred to an underwriter: it cannot be bought until approved. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-quote.referred"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "quote.referral_approved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An underwriter approved a referred quote (with any loading or extra excess): it can be bought.
         * @description An underwriter approved a referred quote (with any loading or extra excess): it can be bought. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-quote.referral_approved"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "quote.referral_declined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An underwriter declined a referred quote: it cannot be bought.
         * @description An underwriter declined a referred quote: it cannot be bought. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-quote.referral_declined"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "quote.information_requested": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An underwriter asks for information on a referred quote (read the quote's `referral`).
         * @description An underwriter asks for information on a referred quote (read the quote's `referral`). Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-quote.information_requested"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "policy.amendment_referred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An amendment preview was referred to an underwriter: it cannot be confirmed until approved.
         * @description An amendment preview was referred to an underwriter: it cannot be confirmed until approved. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-policy.amendment_referred"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "policy.amendment_referral_approved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An underwriter approved a referred amendment: it can be confirmed (until its preview expires).
         * @description An underwriter approved a referred amendment: it can be confirmed (until its preview expires). Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-policy.amendment_referral_approved"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "policy.amendment_referral_declined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An underwriter declined a referred amendment: it cannot be confirmed.
         * @description An underwriter declined a referred amendment: it cannot be confirmed. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-policy.amendment_referral_declined"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A test event you asked for.
         * @description A test event you asked for. Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.
         */
        post: operations["on-webhook.test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * Address
         * @description The policy holder’s home address (policy form).
         */
        Address: {
            addressLine1?: string;
            addressLine2?: string;
            addressLine3?: string;
            addressLine4?: string;
            postalCode?: string;
            provinceId?: number;
            provinceName?: string;
            countryId?: number;
            countryName?: string;
        };
        /**
         * AddressInput
         * @description An address (spec §2.1 AddressInput).
         */
        AddressInput: {
            /** @description First address line. */
            addressLine1?: string;
            /** @description Second address line. */
            addressLine2?: string;
            /** @description Third address line. */
            addressLine3?: string;
            /** @description Fourth address line. */
            addressLine4?: string;
            /** @description State or province code, e.g. `NSW`. */
            provinceCode?: string;
            /** @description Country code (ISO 3166 alpha-3, e.g. `AUS`); the home country of the quote. */
            countryCode?: string;
            /** @description Postal code. */
            postalCode?: string;
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * AdventureActivitiesOptionInput
         * @description Adventure activities cover (spec §2.2).
         */
        AdventureActivitiesOptionInput: {
            /** @description Option type code. */
            optionType?: string;
            /** @description Chosen activities. */
            adventureActivityIds?: number[];
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * Amendment
         * @description A priced amendment of a policy. With `validation.isValid` false nothing is stored and there is no `id`: fix the input and preview again.
         * @example {
         *       "id": "3f1c2b9e-7d4a-4e8b-9c61-0a5d2e7f4b13",
         *       "status": "PREVIEW",
         *       "expiresAt": "2026-11-22T00:30:00.000Z",
         *       "policyNumber": "TIAU260000042",
         *       "sequenceNumber": 2,
         *       "currencyCode": "AUD",
         *       "input": {
         *         "quoteType": "SINGLETRIP",
         *         "planId": 101,
         *         "homeAddress": {
         *           "countryCode": "AUS",
         *           "provinceCode": "NSW"
         *         },
         *         "destinationCountryCodes": [
         *           "JPN"
         *         ],
         *         "departureDate": "2026-12-01",
         *         "returnDate": "2026-12-20",
         *         "policyHolders": [
         *           {
         *             "guid": "traveller-1",
         *             "age": 34,
         *             "isPrimary": true,
         *             "firstName": "Alex",
         *             "lastName": "Smith"
         *           }
         *         ]
         *       },
         *       "paidToDate": {
         *         "premium": 100,
         *         "discount": 0,
         *         "taxes": [
         *           {
         *             "name": "GST",
         *             "amount": 10
         *           }
         *         ],
         *         "footprintsDonation": 0,
         *         "fees": [],
         *         "transactionAmount": 110
         *       },
         *       "repriced": {
         *         "premium": 120,
         *         "discount": 0,
         *         "taxes": [
         *           {
         *             "name": "GST",
         *             "amount": 12
         *           }
         *         ],
         *         "footprintsDonation": 0,
         *         "fees": [],
         *         "transactionAmount": 132
         *       },
         *       "difference": {
         *         "premium": 20,
         *         "discount": 0,
         *         "taxes": [
         *           {
         *             "name": "GST",
         *             "amount": 2
         *           }
         *         ],
         *         "footprintsDonation": 0,
         *         "fees": [],
         *         "transactionAmount": 22
         *       },
         *       "transactionAmount": 22,
         *       "createdAt": "2026-11-22T00:00:00.000Z",
         *       "validation": {
         *         "isValid": true,
         *         "errors": []
         *       }
         *     }
         */
        Amendment: {
            /** @description Opaque id of the change; absent when the preview is not valid (an invalid preview is not stored). */
            id?: string;
            status?: components["schemas"]["PolicyChangeStatus"];
            /** @description Until when the preview may be confirmed (UTC, ISO 8601). */
            expiresAt?: string;
            /** @description The policy changed. */
            policyNumber?: string;
            /** @description The policy transaction (version) this change creates once applied, or created when `APPLIED`. */
            sequenceNumber?: number;
            /** @description ISO 4217 code of the policy currency; every amount is in its major unit. */
            currencyCode?: string;
            input?: components["schemas"]["QuoteInput"];
            /** @description The amended policy priced at today’s rates. */
            priceResults?: components["schemas"]["QuotePriceResult"][];
            /** @description Price summary of the amended plan. */
            prices?: components["schemas"]["QuotePriceSummary"][];
            paidToDate?: components["schemas"]["PolicyChangeAmounts"];
            /** @description What the policy costs as amended, at today’s rates (fees excluded). */
            repriced?: components["schemas"]["PolicyChangeAmounts"];
            /** @description repriced − paidToDate part by part, plus the amendment fee: the money of the transaction this amendment writes. */
            difference?: components["schemas"]["PolicyChangeAmounts"];
            /** @description = difference.transactionAmount: positive, the customer pays it on confirm (a card is needed); negative, it is refunded to the policy’s card(s); 0, nothing moves. */
            transactionAmount?: number;
            referral?: components["schemas"]["QuoteReferral"];
            /**
             * @description Outcome of the last payment step: as on a purchase (see docs/api-contract.md, "Payments"), or `REFUNDED` when the refund was paid back to the card(s). Absent when no money moved.
             * @enum {string}
             */
            paymentResult?: "APPROVED" | "DECLINED" | "INSUFFICIENT_FUNDS" | "THREEDS_CHALLENGE_REQUIRED" | "GATEWAY_ERROR" | "REFUNDED";
            /** @description Why the last payment or refund step did not succeed, e.g. `DO_NOT_HONOUR`, `INSUFFICIENT_FUNDS`, `THREEDS_CHALLENGE_EXPIRED`, `REFUND_DECLINED`, `REFUND_GATEWAY_UNAVAILABLE` (the gateway stayed unavailable past the refund’s retry bound). */
            declineReason?: string;
            /** @description When the preview was first stored (UTC, ISO 8601). */
            createdAt?: string;
            validation?: components["schemas"]["Validation"];
        };
        /**
         * AmendmentConfirmRequest
         * @description Applies a previewed amendment, paying or refunding its difference.
         */
        AmendmentConfirmRequest: {
            /** @description The card to charge when `transactionAmount` is positive; ignored otherwise (refunds go to the cards that paid). A policy bought on account takes none (its charge goes to the partner's account): a token sent is 400 `CARD_TOKEN_NOT_ACCEPTED`. */
            cardToken?: components["schemas"]["CardTokenInput"];
            /** @description Browser data for 3-D Secure; on the confirm after a challenge, its outcome (as on a purchase). */
            threeDSRequestInfo?: components["schemas"]["ThreeDsRequestInfo"];
            clientInfo?: components["schemas"]["ClientInfo"];
        };
        /**
         * AmendmentReferralEventData
         * @description `data` of `policy.amendment_referred`, `policy.amendment_referral_approved` and `policy.amendment_referral_declined`. Reason codes only, no personal data: the underwriter's words are never in an event.
         */
        AmendmentReferralEventData: {
            /** @description The policy the amendment is of. */
            policyNumber: string;
            /** @description The referred amendment (its preview's `id`). */
            amendmentId: string;
            /** @description The brand of the policy. */
            brandCode: string;
            /**
             * @description The amendment's referral after the change (the preview's `referral.status`).
             * @enum {string}
             */
            referralStatus: "REFERRED" | "INFORMATION_REQUESTED" | "APPROVED" | "DECLINED" | "WITHDRAWN";
            /** @description The reason codes of the rules that referred the amendment. */
            reasonCodes: string[];
            /** @description Since when the amendment is referred (UTC). */
            referredAt: string;
            /** @description When the underwriter decided (UTC). */
            decidedAt?: string;
        };
        /**
         * AmendmentRequest
         * @description The policy as it should be: the whole QuoteInput (same shape and validation as a quote), not a patch. What may change depends on the plan and on whether the trip has started (docs/api-contract.md, "Changing a policy").
         */
        AmendmentRequest: {
            input: components["schemas"]["QuoteInput"];
            clientInfo?: components["schemas"]["ClientInfo"];
        };
        /**
         * Audit
         * @description Who created and last changed the record, and when (policy form of Audit).
         */
        Audit: {
            /** @description UTC, ISO 8601. */
            createdAt?: string;
            /** @description UTC, ISO 8601. */
            updatedAt?: string;
            createdByUserId?: number;
            updatedByUserId?: number;
        };
        /**
         * AuthorizationPolicy
         * @description Who may act on the policy: the plan, the partner that sold it and the customer user.
         */
        AuthorizationPolicy: {
            planId?: number;
            partnerId?: number;
            customerUserId?: number;
        };
        /**
         * AuthorizationServerMetadata
         * @description RFC 8414 §2 metadata of one brand’s authorization server.
         */
        AuthorizationServerMetadata: {
            /**
             * Format: uri
             * @description Equals the `iss` of this brand’s access tokens.
             */
            issuer: string;
            /**
             * Format: uri
             * @description The brand’s token endpoint.
             */
            token_endpoint: string;
            grant_types_supported: string[];
            /** @description Empty: there is no authorization endpoint. */
            response_types_supported: string[];
            /** @description Clients are public: `none` (client_id in the form), or Basic / form with an empty secret. */
            token_endpoint_auth_methods_supported: string[];
            /** Format: uri */
            service_documentation: string;
            /** @description Extension (spec §5 note 6): the token endpoint also accepts a partner’s own brand code in place of `{brandCode}` (`…/users/{partnerBrandCode}/token`), for that partner’s users; the token is this brand’s. Codes are given to each partner by the operator and are not listed here. */
            partner_brand_codes_supported: boolean;
        };
        /**
         * AuthorizedPerson
         * @description The person authorised to answer the medical screening.
         */
        AuthorizedPerson: {
            firstName?: string;
            surname?: string;
            dateOfBirth?: components["schemas"]["LocalDate"];
            email?: string;
            phone?: string;
        };
        /**
         * AuthorizedPersonInput
         * @description Who answers the screening for the traveller (spec §2.8 AuthorizedPerson).
         */
        AuthorizedPersonInput: {
            /** @description First name. */
            firstName: string;
            /** @description Surname. */
            surname: string;
            /** @description YYYY-MM-DD. */
            dateOfBirth: string;
            /** @description E-mail address. */
            email: string;
            /** @description Phone number. */
            phone: string;
        };
        /**
         * BasePriceResult
         * @description Base price of a plan (spec §2.2 BasePriceResult).
         */
        BasePriceResult: {
            /** @description Plan. */
            planId?: number;
            /** @description Net list price. */
            netListPrice?: number;
            /** @description Sale list price. */
            saleListPrice?: number;
            taxComponents?: components["schemas"]["TaxComponentResult"][];
            /** @description Commission within the sale price. */
            saleListCommission?: number;
            /** @description Campaign discount on the net price. */
            netCampaignDiscount?: number;
            /** @description Campaign discount on the sale price. */
            saleCampaignDiscount?: number;
            /** @description Partner discount on the sale price. */
            salePartnerDiscount?: number;
            priceDetails?: components["schemas"]["BasePriceResultDetail"][];
        };
        /**
         * BasePriceResultDetail
         * @description Base price of one traveller (spec §2.2 BasePriceResultDetail).
         */
        BasePriceResultDetail: {
            /** @description Age of the traveller this line prices. */
            age?: number;
            /** @description Age band. */
            ageRangeId?: number;
            /** @description Net list price. */
            netListPrice?: number;
            /** @description Net price row. */
            netListPriceId?: number;
            /** @description Sale list price. */
            saleListPrice?: number;
            /** @description Sale price row. */
            saleListPriceId?: number;
            /** @description Commission within the sale price. */
            saleListCommission?: number;
            /** @description Campaign discount on the net price. */
            netCampaignDiscount?: number;
            /** @description Campaign discount on the sale price. */
            saleCampaignDiscount?: number;
            /** @description Partner discount on the sale price. */
            salePartnerDiscount?: number;
        };
        /**
         * BasePriceSummary
         * @description Base price of a plan, summarised (spec §2.2 BasePriceSummary).
         */
        BasePriceSummary: {
            /** @description Price. */
            price?: number;
            /** @description Campaign discount. */
            campaignDiscount?: number;
            /** @description Partner discount. */
            partnerDiscount?: number;
            taxComponents?: components["schemas"]["TaxComponentSummary"][];
        };
        /**
         * BasicOptionInput
         * @description An opt-in/opt-out option (spec §2.2).
         */
        BasicOptionInput: {
            /** @description Option type code, e.g. `CRUISE`, `SNOWSPORTS`, `RENTALCAREXCESS`. */
            optionType?: string;
            /** @description Opt in (true) or out (false) of this option. */
            isOptedIn?: boolean;
            /** @description Chosen cover value, where the option has one. */
            optedInTotalValue?: number;
            /** @description Chosen offset value, where the option has one. */
            optedInOffsetValue?: number;
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * BrandContentResponse
         * @description Brand content (spec §2.7).
         */
        BrandContentResponse: {
            /** @description Seconds this response may be reused before refreshing; also sent as `Cache-Control: max-age`. */
            expirySeconds?: number;
            /** @description Brand code. */
            code?: string;
            name?: string;
            effectiveToDate?: string;
            contentItems?: {
                /** @description e.g. EMAILREPLYTOANDFROM, TNCHEADER, EFOOTER. */
                type?: string;
                content?: string;
            }[];
            /** @description Language code → language name. */
            availableTranslations?: {
                [key: string]: string;
            };
        };
        /**
         * BrowserInfo
         * @description Spec §2.3 BrowserInfo.
         */
        BrowserInfo: {
            /** @description Colour depth. */
            color?: string;
            /** @description Screen height. */
            height?: string;
            /** @description Screen width. */
            width?: string;
            /** @description Time zone offset. */
            tzOffset?: string;
            /** @description Java enabled. */
            javaEnabled?: string;
        };
        /** BulkRedeliverRequest */
        BulkRedeliverRequest: {
            /**
             * Format: date-time
             * @description Events that happened at or after this instant …
             */
            from: string;
            /**
             * Format: date-time
             * @description … and before this one.
             */
            to: string;
            /** @description Only deliveries whose retries are exhausted (FAILED). */
            failedOnly?: boolean;
            /** @description Only to this endpoint. */
            webhookId?: string;
        };
        /**
         * CalendarSystem
         * @description The calendar a LocalDate is expressed in: the ISO calendar.
         */
        CalendarSystem: {
            /** @description Always `ISO`. */
            id?: string;
            /** @description Always `ISO`. */
            name?: string;
            minYear?: number;
            maxYear?: number;
            eras?: components["schemas"]["Era"][];
        };
        /**
         * Cancellation
         * @description A priced cancellation of a policy. With `validation.isValid` false nothing is stored and there is no `id`.
         * @example {
         *       "id": "8b27e0d4-5c3f-4a19-b6e2-71d9f0c4a285",
         *       "status": "PREVIEW",
         *       "expiresAt": "2026-11-22T00:30:00.000Z",
         *       "policyNumber": "TIAU260000042",
         *       "sequenceNumber": 2,
         *       "currencyCode": "AUD",
         *       "reasonCode": "TRIP_CANCELLED",
         *       "effectiveDate": "2026-11-22",
         *       "refundBasis": "COOLING_OFF",
         *       "coolingOffEndsAt": "2026-12-13T12:59:59.000Z",
         *       "coverDays": 15,
         *       "unusedCoverDays": 15,
         *       "paidToDate": {
         *         "premium": 100,
         *         "discount": 0,
         *         "taxes": [
         *           {
         *             "name": "GST",
         *             "amount": 10
         *           }
         *         ],
         *         "footprintsDonation": 0,
         *         "fees": [],
         *         "transactionAmount": 110
         *       },
         *       "refund": {
         *         "premium": -100,
         *         "discount": 0,
         *         "taxes": [
         *           {
         *             "name": "GST",
         *             "amount": -10
         *           }
         *         ],
         *         "footprintsDonation": 0,
         *         "fees": [],
         *         "transactionAmount": -110
         *       },
         *       "refundAmount": 110,
         *       "createdAt": "2026-11-22T00:00:00.000Z",
         *       "validation": {
         *         "isValid": true,
         *         "errors": []
         *       }
         *     }
         */
        Cancellation: {
            /** @description Opaque id of the change; absent when the preview is not valid (an invalid preview is not stored). */
            id?: string;
            status?: components["schemas"]["PolicyChangeStatus"];
            /** @description Until when the preview may be confirmed (UTC, ISO 8601). */
            expiresAt?: string;
            /** @description The policy changed. */
            policyNumber?: string;
            /** @description The policy transaction (version) this change creates once applied, or created when `APPLIED`. */
            sequenceNumber?: number;
            /** @description ISO 4217 code of the policy currency; every amount is in its major unit. */
            currencyCode?: string;
            reasonCode?: components["schemas"]["CancellationReasonCode"];
            /** @description The first day without cover, YYYY-MM-DD in the policy’s time zone. */
            effectiveDate?: string;
            refundBasis?: components["schemas"]["RefundBasis"];
            /** @description End of the cooling-off period (UTC, ISO 8601); the issue instant when there is none. */
            coolingOffEndsAt?: string;
            /** @description Days of cover bought, departure to cover end inclusive. */
            coverDays?: number;
            /** @description Days of cover not used, from the later of effectiveDate and departure. */
            unusedCoverDays?: number;
            paidToDate?: components["schemas"]["PolicyChangeAmounts"];
            /** @description The cancellation transaction’s money: negative parts are refunded, the cancellation fee is positive. */
            refund?: components["schemas"]["PolicyChangeAmounts"];
            /** @description What goes back to the customer: −refund.transactionAmount, 0 or positive. */
            refundAmount?: number;
            /**
             * @description Outcome of the last payment step: as on a purchase (see docs/api-contract.md, "Payments"), or `REFUNDED` when the refund was paid back to the card(s). Absent when no money moved.
             * @enum {string}
             */
            paymentResult?: "APPROVED" | "DECLINED" | "INSUFFICIENT_FUNDS" | "THREEDS_CHALLENGE_REQUIRED" | "GATEWAY_ERROR" | "REFUNDED";
            /** @description Why the last payment or refund step did not succeed, e.g. `DO_NOT_HONOUR`, `INSUFFICIENT_FUNDS`, `THREEDS_CHALLENGE_EXPIRED`, `REFUND_DECLINED`, `REFUND_GATEWAY_UNAVAILABLE` (the gateway stayed unavailable past the refund’s retry bound). */
            declineReason?: string;
            /** @description When the preview was first stored (UTC, ISO 8601). */
            createdAt?: string;
            validation?: components["schemas"]["Validation"];
        };
        /**
         * CancellationConfirmRequest
         * @description Applies a previewed cancellation and refunds it to the card(s) that paid. The body is optional: none, `{}` or `{"clientInfo": …}`.
         */
        CancellationConfirmRequest: {
            clientInfo?: components["schemas"]["ClientInfo"];
        };
        /**
         * CancellationOptionInput
         * @description Cancellation cover (spec §2.2).
         */
        CancellationOptionInput: {
            /** @description Option type code. */
            optionType?: string;
            /** @description Chosen cancellation cover limit. */
            cancellationCoverLimit?: number;
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * CancellationReasonCode
         * @description Why the customer cancels: `TRIP_CANCELLED`, `DUPLICATE_POLICY`, `OTHER_COVER_FOUND`, `CHANGE_OF_PLANS`, `COOLING_OFF`, `OTHER`. Recorded only: the refund follows the plan’s rules, not the reason.
         * @enum {string}
         */
        CancellationReasonCode: "TRIP_CANCELLED" | "DUPLICATE_POLICY" | "OTHER_COVER_FOUND" | "CHANGE_OF_PLANS" | "COOLING_OFF" | "OTHER";
        /**
         * CancellationRequest
         * @description Asks what cancelling the policy would refund.
         */
        CancellationRequest: {
            reasonCode: components["schemas"]["CancellationReasonCode"];
            /** @description The first day without cover, YYYY-MM-DD in the policy’s time zone (`presentationTimeZoneCode`); from today to the departure date (today once the trip has started), within the cover. Default: today there. */
            effectiveDate?: string;
            clientInfo?: components["schemas"]["ClientInfo"];
        };
        /**
         * CardTokenInput
         * @description Spec §2.3 CardTokenInput.
         */
        CardTokenInput: {
            /** @description A tokenised card from the payment page; never a card number. Answers mask it. */
            token?: string;
            /** @description Where the token came from (echoed). */
            source?: string;
            validation?: components["schemas"]["Validation"];
        };
        /**
         * ClientInfo
         * @description The end customer's client (spec §2.1 ClientInfo).
         */
        ClientInfo: {
            /** @description Customer IP address. */
            ipAddress?: string;
            /** @description Customer browser user agent. */
            userAgent?: string;
            /** @description Referring page. */
            referer?: string;
        };
        /** CreateWebhookRequest */
        CreateWebhookRequest: {
            /** @description Where events are POSTed. Production: `https` only, no user or password in the URL, and the host must resolve to public addresses only (loopback, private, link-local, unique-local, CGNAT, metadata and reserved addresses are refused, 400 `WEBHOOK_URL_REFUSED`). Staging also allows `http` and loopback (`http://127.0.0.1:…`, `http://localhost:…`). */
            url: string;
            /** @description The event types this endpoint receives; empty or omitted: every type. `webhook.test` always reaches it. */
            eventTypes?: ("policy.issued" | "policy.amended" | "policy.cancelled" | "payment.captured" | "payment.refunded" | "purchase.declined" | "documents.sent" | "quote.referred" | "quote.referral_approved" | "quote.referral_declined" | "quote.information_requested" | "policy.amendment_referred" | "policy.amendment_referral_approved" | "policy.amendment_referral_declined" | "webhook.test")[];
            /** @description Your note about the endpoint. */
            description?: string;
            /** @description Default true. */
            enabled?: boolean;
        };
        /**
         * Currency
         * @description The currency of every financial transaction of the policy.
         */
        Currency: {
            id?: number;
            symbol?: string;
            /** @description ISO 4217 code, e.g. `AUD`. */
            code?: string;
            description?: string;
            hasMinorUnits?: boolean;
        };
        /**
         * DeliveryAttempt
         * @description One delivery attempt to a webhook endpoint.
         */
        DeliveryAttempt: {
            /** @description 1, 2, 3 … per endpoint, across redeliveries. */
            attempt: number;
            /**
             * Format: date-time
             * @description When it was sent (UTC).
             */
            attemptedAt: string;
            /**
             * @description 2xx answered: SUCCEEDED.
             * @enum {string}
             */
            outcome: "SUCCEEDED" | "FAILED";
            /** @description The receiver's HTTP status; absent when none came. */
            statusCode?: number;
            /** @description Time to the answer (or the failure), milliseconds. */
            latencyMs: number;
            /** @description `TIMEOUT`, `ADDRESS_REFUSED`, `CONNECTION`, `HTTP_500` … */
            error?: string;
            /** @description The first bytes of your receiver's answer. */
            responseExcerpt?: string;
        };
        /**
         * DependentShortSummary
         * @description A dependent covered by the policy.
         */
        DependentShortSummary: {
            dependentId?: number;
            guid?: string;
            displayOrder?: number;
            title?: string;
            firstName?: string;
            surname?: string;
            age?: number;
            dateOfBirth?: components["schemas"]["LocalDate"];
            travelClear?: components["schemas"]["TravelClearSummary"];
        };
        /**
         * DocumentsSentData
         * @description `data` of `documents.sent`: the e-mail was accepted by the mail server.
         */
        DocumentsSentData: {
            /** @description The policy number, e.g. `TIAU260000042`. */
            policyNumber: string;
            /** @description The brand the policy was sold under. */
            brandCode: string;
            /** @description The policy transaction (1 = the purchase). */
            sequenceNumber: number;
            /** @description The transaction whose documents were sent. */
            actionType: string;
            /**
             * @description The primary traveller, or the address of the partner's resend request.
             * @enum {string}
             */
            recipient: "PRIMARY_TRAVELLER" | "REQUESTED_ADDRESS";
            /** @description The quote the policy was bought from. */
            quoteId?: string;
            externalIdentifiers: components["schemas"]["EventExternalIdentifiers"];
            /** @description 1, 2, 3 … per policy, gapless, in the order the changes committed: order a policy's events by it (deliveries may arrive out of order). */
            policyEventSequence: number;
        };
        /**
         * DocumentsSentEvent
         * @description The `documents.sent` event as delivered.
         */
        DocumentsSentEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "documents.sent";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["DocumentsSentData"];
        };
        /**
         * Era
         * @description An era of a calendar system.
         */
        Era: {
            /** @description `CE` (common era) or `BCE`. */
            name?: string;
        };
        /**
         * ErrorResponse
         * @description No valid bearer token.
         */
        ErrorResponse: {
            validation: components["schemas"]["Validation"];
        };
        /**
         * Event
         * @description One event: the exact body a webhook delivery signs and sends. Its `type` says which `data` it carries.
         */
        Event: components["schemas"]["PolicyIssuedEvent"] | components["schemas"]["PolicyAmendedEvent"] | components["schemas"]["PolicyCancelledEvent"] | components["schemas"]["PaymentCapturedEvent"] | components["schemas"]["PaymentRefundedEvent"] | components["schemas"]["PurchaseDeclinedEvent"] | components["schemas"]["DocumentsSentEvent"] | components["schemas"]["QuoteReferredEvent"] | components["schemas"]["QuoteReferralApprovedEvent"] | components["schemas"]["QuoteReferralDeclinedEvent"] | components["schemas"]["QuoteInformationRequestedEvent"] | components["schemas"]["PolicyAmendmentReferredEvent"] | components["schemas"]["PolicyAmendmentReferralApprovedEvent"] | components["schemas"]["PolicyAmendmentReferralDeclinedEvent"] | components["schemas"]["WebhookTestEvent"];
        /**
         * EventDeliveries
         * @description The event's deliveries to one webhook endpoint.
         */
        EventDeliveries: {
            /** @description The endpoint. */
            webhookId: string;
            /**
             * @description PENDING: attempts to come; SENT: delivered; FAILED: retries exhausted (redeliver it).
             * @enum {string}
             */
            state?: "PENDING" | "SENT" | "FAILED";
            /** @description Oldest first. */
            attempts: components["schemas"]["DeliveryAttempt"][];
        };
        /**
         * EventDetail
         * @description An event and every attempt to deliver it.
         */
        EventDetail: {
            type: "EventDetail";
        } & (Omit<components["schemas"]["Event"], "type"> & {
            /** @description Per endpoint it was queued for. */
            deliveries: components["schemas"]["EventDeliveries"][];
        });
        /**
         * EventExternalIdentifiers
         * @description The partner's own identifiers of the policy.
         */
        EventExternalIdentifiers: {
            /** @description The partner's `externalIdentifiers.bookingReference` given with the quote. */
            bookingReference: string | null;
        };
        /**
         * EventFeed
         * @description A page of the pull feed.
         */
        EventFeed: {
            /** @description Published events in feed order (publication = commit order). */
            events: components["schemas"]["Event"][];
            /** @description True: ask again with `after` = the last id here. */
            hasMore: boolean;
        };
        /**
         * ExternalIdentifiers
         * @description Identifiers of the quote in other systems (spec §2.2).
         */
        ExternalIdentifiers: {
            /** @description External membership provider. */
            externalMembershipProviderId?: number;
            /** @description External membership number. */
            externalMembershipNumber?: string;
            /** @description Booking reference. */
            bookingReference?: string;
            /** @description Marketing source. */
            marketingSource?: string;
        };
        /**
         * ExternalMembership
         * @description A membership (e.g. a loyalty programme) recorded on the policy.
         */
        ExternalMembership: {
            name?: string;
            code?: string;
            number?: string;
        };
        /**
         * FeaturesResponse
         * @description Feature switches of an insurance contract (spec §2.7).
         */
        FeaturesResponse: {
            /** @description Seconds this response may be reused before refreshing; also sent as `Cache-Control: max-age`. */
            expirySeconds?: number;
            features?: {
                /** @description e.g. CAMPEN, COVIDCOVER. */
                code?: string;
                name?: string;
            }[];
        };
        /**
         * FinancialSummary
         * @description Money of one policy transaction, in the policy currency’s major unit.
         */
        FinancialSummary: {
            policyDetailId?: number;
            /** @description What the transaction charged: premium − discount + taxes + footprintsDonation + fees. Negative when it refunded (an amendment that costs less, a cancellation). */
            transactionAmount?: number;
            /** @description Premium before discount, taxes and donation; for an amendment or cancellation, the change of premium. */
            premium?: number;
            /** @description Discount taken off the premium (positive); for a change, the change of discount. */
            discount?: number;
            /** @description Charitable donation added to the transaction. */
            footprintsDonation?: number;
            taxes?: components["schemas"]["TaxSummary"][];
            /** @description Extension: fees of an amendment or a cancellation (e.g. `Cancellation fee`), each added to transactionAmount. Absent when there is none. */
            fees?: components["schemas"]["TaxSummary"][];
        };
        /**
         * FootprintsDonationInput
         * @description An optional donation (spec §2.2).
         */
        FootprintsDonationInput: {
            /** @description Donation amount. */
            donationAmount?: number;
            /** @description Donation project. */
            donationProjectId?: number;
            /** @description Donation account code. */
            donationAccountCode?: string;
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * HealthResponse
         * @description The process is up and serving HTTP.
         */
        HealthResponse: {
            /** @enum {string} */
            status: "ok";
        };
        /**
         * LocalDate
         * @description A calendar date without time or zone (spec §2.8 LocalDate).
         */
        LocalDate: {
            calendar?: components["schemas"]["CalendarSystem"];
            year?: number;
            /** @description 1–12. */
            month?: number;
            /** @description 1–31. */
            day?: number;
            /** @enum {string} */
            dayOfWeek?: "None" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
            yearOfEra?: number;
            era?: components["schemas"]["Era"];
            /** @description 1–366. */
            dayOfYear?: number;
        };
        /**
         * Notification
         * @description One problem found with a request (spec §2.1 Notification).
         */
        Notification: {
            /** @description Stable machine code, e.g. `UNKNOWN_BRAND`. */
            code?: string;
            /** @description What went wrong, for a person. */
            message?: string;
            /** @description Values the message refers to (limits, allowed values, the request id of a server error). */
            tokens?: {
                [key: string]: string;
            };
            /** @description Where the problem is: a JSON path into the body (`quote.input.returnDate`) or a parameter name. */
            property?: string;
            /** @description The offending value, when it is safe to echo. */
            value?: string;
            title?: string;
            detail?: string;
        };
        /**
         * OptionItemPriceSummary
         * @description Price of one item of an option (spec §2.2 OptionItemPriceSummary).
         */
        OptionItemPriceSummary: {
            /** @description Item or holder guid. */
            guid?: string;
            /** @description Price. */
            price?: number;
            /** @description Campaign discount. */
            campaignDiscount?: number;
            /** @description Partner discount. */
            partnerDiscount?: number;
        };
        /**
         * OptionPriceResult
         * @description Price of one option (spec §2.2 OptionPriceResult).
         */
        OptionPriceResult: {
            /** @description Option. */
            optionId?: number;
            /** @description Option type. */
            optionTypeCode?: string;
            /** @description The holder this option is for, if per holder. */
            policyHolderGuid?: string;
            /** @description Net list price. */
            netListPrice?: number;
            /** @description Net price row. */
            netListPriceId?: number;
            /** @description Sale list price. */
            saleListPrice?: number;
            /** @description Sale price row. */
            saleListPriceId?: number;
            /** @description Cover amount. */
            optionCoverageAmount?: number;
            /** @description Lowest net price. */
            minNetListPrice?: number;
            /** @description Highest net price. */
            maxNetListPrice?: number;
            /** @description The quote chose this option explicitly. */
            isOptionExplicit?: boolean;
            /** @description Included unless opted out. */
            isDefault?: boolean;
            /** @description Largest total of items on a policy. */
            maxItemValuePerPolicy?: number;
            /** @description Lowest sale price. */
            minSaleListPrice?: number;
            /** @description Highest sale price. */
            maxSaleListPrice?: number;
            taxComponents?: components["schemas"]["TaxComponentResult"][];
            /** @description Commission within the sale price. */
            saleListCommission?: number;
            /** @description Campaign discount on the net price. */
            netCampaignDiscount?: number;
            /** @description Campaign discount on the sale price. */
            saleCampaignDiscount?: number;
            /** @description Partner discount on the sale price. */
            salePartnerDiscount?: number;
            priceDetails?: components["schemas"]["OptionPriceResultDetail"][];
        };
        /**
         * OptionPriceResultDetail
         * @description One line of an option price (spec §2.2 OptionPriceResultDetail).
         */
        OptionPriceResultDetail: {
            /** @description Option sub-type. */
            optionSubTypeCode?: string;
            /** @description The specified item this line prices. */
            itemGuid?: string;
            /** @description Net list price. */
            netListPrice?: number;
            /** @description Net price row. */
            netListPriceId?: number;
            /** @description Sale list price. */
            saleListPrice?: number;
            /** @description Sale price row. */
            saleListPriceId?: number;
            /** @description Commission within the sale price. */
            saleListCommission?: number;
            /** @description Campaign discount on the net price. */
            netCampaignDiscount?: number;
            /** @description Campaign discount on the sale price. */
            saleCampaignDiscount?: number;
            /** @description Partner discount on the sale price. */
            salePartnerDiscount?: number;
            /** @description Price as a percentage of the item value. */
            saleListPricePercentage?: number;
            /** @description Smallest item value. */
            minItemValue?: number;
            /** @description Largest value of one item. */
            maxItemValuePerUnit?: number;
            /** @description Item type. */
            specifiedItemTypeId?: number;
            /** @description Item type code. */
            specifiedItemTypeCode?: string;
            /** @description Item type name. */
            specifiedItemTypeName?: string;
            /** @description Included unless opted out. */
            isDefault?: boolean;
        };
        /**
         * OptionPriceSummary
         * @description Price of one option, summarised (spec §2.2 OptionPriceSummary).
         */
        OptionPriceSummary: {
            /** @description Option. */
            optionId?: number;
            /** @description Option type. */
            optionType?: string;
            /** @description Holder, if per holder. */
            policyHolderGuid?: string;
            /** @description Price. */
            price?: number;
            /** @description Campaign discount. */
            campaignDiscount?: number;
            /** @description Partner discount. */
            partnerDiscount?: number;
            items?: components["schemas"]["OptionItemPriceSummary"][];
            /** @description Order to show options in. */
            displayOrder?: number;
        };
        /**
         * PartnerSummary
         * @description Spec §2.2 PartnerSummary; ignored on purchase (the partner is the token's).
         */
        PartnerSummary: {
            /** @description Ignored: the partner is the token's. */
            id?: number;
            /** @description Ignored. */
            name?: string;
            /** @description Ignored. */
            code?: string;
            /** @description Ignored. */
            statusCode?: string;
            /** @description Ignored: the partner's stored flag decides whether `paymentMethod: ON_ACCOUNT` is allowed. */
            isOnAccountPurchaseEnabled?: boolean;
        };
        /**
         * PaymentCapturedEvent
         * @description The `payment.captured` event as delivered.
         */
        PaymentCapturedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment.captured";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["PaymentEventData"];
        };
        /**
         * PaymentEventData
         * @description `data` of `payment.captured` and `payment.refunded`.
         * @example {
         *       "policyNumber": "TIAU260000042",
         *       "brandCode": "brandau",
         *       "sequenceNumber": 1,
         *       "amount": 123.45,
         *       "currency": "AUD",
         *       "paymentReference": "pay_5d1c",
         *       "paymentMethod": "CARD",
         *       "quoteId": "q_7Hh2kQ",
         *       "externalIdentifiers": {
         *         "bookingReference": "BK-10293"
         *       },
         *       "policyEventSequence": 2
         *     }
         */
        PaymentEventData: {
            /** @description The policy number, e.g. `TIAU260000042`. */
            policyNumber: string;
            /** @description The brand the policy was sold under. */
            brandCode: string;
            /** @description The policy transaction (1 = the purchase). */
            sequenceNumber: number;
            /** @description Captured or refunded, major units. */
            amount: number;
            /** @description ISO 4217 code. */
            currency: string;
            /** @description The payment gateway's reference of the charge (refund: of the first payment refunded). */
            paymentReference: string | null;
            /**
             * @description How the money moved: CARD, the policy's card at the brand's gateway; ON_ACCOUNT, charged to or credited on the partner's account (its monthly statement). Absent only on events recorded before on-account purchases existed (all CARD).
             * @enum {string}
             */
            paymentMethod?: "CARD" | "ON_ACCOUNT";
            /** @description `payment.refunded`: each payment the refund went back to. */
            refunds?: {
                /** @description Payment refunded. */
                paymentReference: string;
                /** @description Amount. */
                amount: number;
            }[];
            /** @description `payment.refunded` of a refund that went through only in part (the gateway refused the rest, or stayed unavailable): what is still owed to the customer, major units; an operator pays it. Absent when all of it went through. */
            outstandingAmount?: number;
            /** @description The quote the policy was bought from. */
            quoteId?: string;
            externalIdentifiers: components["schemas"]["EventExternalIdentifiers"];
            /** @description 1, 2, 3 … per policy, gapless, in the order the changes committed: order a policy's events by it (deliveries may arrive out of order). */
            policyEventSequence: number;
        };
        /**
         * PaymentRefundedEvent
         * @description The `payment.refunded` event as delivered.
         */
        PaymentRefundedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment.refunded";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["PaymentEventData"];
        };
        /**
         * PdsSummaryResponse
         * @description PDS metadata (spec §2.7); describes the document the `/pds` endpoint returns.
         */
        PdsSummaryResponse: {
            name?: string;
            filename?: string;
            /** @description Always `PDF`. */
            contentTypeCode?: string;
            /** @description Language codes of the document. */
            contentLanguage?: string[];
        };
        /**
         * PlanResponse
         * @description Plan configuration (spec §2.6).
         */
        PlanResponse: {
            /** @description Seconds this response may be reused before refreshing; also sent as `Cache-Control: max-age`. */
            expirySeconds?: number;
            /** @description Id of this plan version. */
            planId?: number;
            /** @description Stable across plan versions. */
            code?: string;
            name?: string;
            /** @description 64-bit integer. */
            insuranceContractId?: number;
            policyNumberPrefix?: string;
            /** @description Pattern of parts: `{prefix}`, `{jurisdiction}` (alpha-2), `{yy}`, `{yyyy}`, `{increment:N}` and literal A-Z 0-9 `-`. */
            policyNumberFormat?: string;
            underwriterCode?: string;
            currencyCode?: string;
            /** @description Home countries this plan is sold to. */
            homeCountryCodes?: string[];
            /** @description Relative path of the PDS document: `v2/{brandCode}/insuranceContract/{id}/pds?planId=…&lang=…`. */
            pdsUrl?: string;
            purchaseTermsAndConditions?: components["schemas"]["TermConditionSummary"][];
            overrideJurisdictionCountryCode?: string;
            overrideJurisdictionProvinceCode?: string;
            /** @description First day the version is sold (YYYY-MM-DD). */
            effectiveFromDate?: string;
            /** @description Last day the version is sold (inclusive); absent = open ended. */
            effectiveToDate?: string;
            /** @description Language code → language name. */
            availableTranslations?: {
                [key: string]: string;
            };
            /** @description `SINGLETRIP` or `MULTITRIP`. */
            quoteType?: string;
            brandCode?: string;
        };
        /**
         * PlanShortSummary
         * @description The plan the policy was bought on, as it was at purchase.
         */
        PlanShortSummary: {
            planId?: number;
            productId?: number;
            planDisplayGroupId?: number;
            saleCurrencyId?: number;
            /** @description Stable across product versions. */
            code?: string;
            shortDescription?: string;
            longDescription?: string;
            underwriterCode?: string;
            /** @description True for annual multi-trip, otherwise single trip. */
            isAnnualMultiTrip?: boolean;
            quotePanelTypeId?: number;
        };
        /**
         * PolicyAmendedEvent
         * @description The `policy.amended` event as delivered.
         */
        PolicyAmendedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "policy.amended";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["PolicyEventData"];
        };
        /**
         * PolicyAmendmentReferralApprovedEvent
         * @description The `policy.amendment_referral_approved` event as delivered.
         */
        PolicyAmendmentReferralApprovedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "policy.amendment_referral_approved";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["AmendmentReferralEventData"];
        };
        /**
         * PolicyAmendmentReferralDeclinedEvent
         * @description The `policy.amendment_referral_declined` event as delivered.
         */
        PolicyAmendmentReferralDeclinedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "policy.amendment_referral_declined";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["AmendmentReferralEventData"];
        };
        /**
         * PolicyAmendmentReferredEvent
         * @description The `policy.amendment_referred` event as delivered.
         */
        PolicyAmendmentReferredEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "policy.amendment_referred";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["AmendmentReferralEventData"];
        };
        /**
         * PolicyCancelledEvent
         * @description The `policy.cancelled` event as delivered.
         */
        PolicyCancelledEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "policy.cancelled";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["PolicyEventData"];
        };
        /**
         * PolicyChangeAmounts
         * @description What the policy has paid so far, over all its transactions.
         * @example {
         *       "premium": 42.5,
         *       "discount": 0,
         *       "taxes": [
         *         {
         *           "name": "GST",
         *           "amount": 4.25
         *         }
         *       ],
         *       "footprintsDonation": 0,
         *       "fees": [],
         *       "transactionAmount": 46.75
         *     }
         */
        PolicyChangeAmounts: {
            /** @description Premium before discount, taxes and donation. Signed, in the policy currency’s major unit: positive when the customer pays, negative when refunded. */
            premium?: number;
            /** @description Discount taken off the premium (a positive discount lowers transactionAmount). */
            discount?: number;
            /** @description Each tax by name. Signed, in the policy currency’s major unit: positive when the customer pays, negative when refunded. */
            taxes?: components["schemas"]["TaxSummary"][];
            /** @description Charitable donation. Signed, in the policy currency’s major unit: positive when the customer pays, negative when refunded. */
            footprintsDonation?: number;
            /** @description Fees of the change itself (e.g. `Amendment fee`, `Cancellation fee`), each added to the total. */
            fees?: components["schemas"]["TaxSummary"][];
            /** @description premium − discount + Σ taxes + footprintsDonation + Σ fees, exactly the sum of the parts. Signed, in the policy currency’s major unit: positive when the customer pays, negative when refunded. */
            transactionAmount?: number;
        };
        /**
         * PolicyChangeConfirmation
         * @description Outcome of confirming a change: the change with its status, the payment or refunds, and the policy.
         */
        PolicyChangeConfirmation: {
            /** @description The policy as it stands now (changed once `APPLIED`). */
            policy?: components["schemas"]["PolicySummary"];
            /** @description The amendment confirmed (absent for a cancellation). */
            amendment?: components["schemas"]["Amendment"];
            /** @description The cancellation confirmed (absent for an amendment). */
            cancellation?: components["schemas"]["Cancellation"];
            /**
             * @description Outcome of the last payment step: as on a purchase (see docs/api-contract.md, "Payments"), or `REFUNDED` when the refund was paid back to the card(s). Absent when no money moved.
             * @enum {string}
             */
            paymentResult?: "APPROVED" | "DECLINED" | "INSUFFICIENT_FUNDS" | "THREEDS_CHALLENGE_REQUIRED" | "GATEWAY_ERROR" | "REFUNDED";
            /**
             * @description How the change's money moved: CARD, the policy's card; ON_ACCOUNT, the partner's account. Absent when no money moved.
             * @enum {string}
             */
            paymentMethod?: "CARD" | "ON_ACCOUNT";
            /** @description The gateway payment id of the charge, or the ids of the payments refunded (comma separated); absent when no money moved. */
            paymentIds?: string;
            /** @description When `status` is `CHALLENGE_REQUIRED`: the challenge to open in the cardholder’s browser. */
            threeDSResponseInfo?: components["schemas"]["ThreeDsResponseInfo"];
            /** @description The refunds paid, one per payment of the policy. */
            refunds?: components["schemas"]["RefundLine"][];
            validation?: components["schemas"]["Validation"];
        };
        /**
         * PolicyChangeStatus
         * @description Where the change stands:
         *     - `PREVIEW`: priced and held until `expiresAt`; confirm it to apply it (again after a declined card).
         *     - `EXPIRED`: the preview is past `expiresAt`; ask for a new preview.
         *     - `STALE`: the policy changed since the preview (another change was applied); ask for a new preview.
         *     - `IN_PROGRESS`: confirmed and being settled (payment or refund under way); read it again later.
         *     - `CHALLENGE_REQUIRED`: the card asks for 3-D Secure: open `threeDSResponseInfo.threeDSResponse`, then confirm again with `threeDSRequestInfo`.
         *     - `APPLIED`: the policy transaction `sequenceNumber` is written; the policy is changed. With `REFUND_INCOMPLETE` in `validation`: only part of the refund went through (the transaction books that part; an operator pays the rest).
         *     - `FAILED`: nothing was changed (the charge was released, or the refund was refused or the gateway stayed unavailable); `declineReason` says why.
         * @enum {string}
         */
        PolicyChangeStatus: "PREVIEW" | "EXPIRED" | "STALE" | "IN_PROGRESS" | "CHALLENGE_REQUIRED" | "APPLIED" | "FAILED";
        /**
         * PolicyCombinedOptionLongSummary
         * @description Every option of the transaction.
         */
        PolicyCombinedOptionLongSummary: {
            policyOptionLongSummaries?: components["schemas"]["PolicyOptionLongSummary"][];
            /** @description Specified items covered. */
            policySpecifiedItemOption?: {
                specifiedItems?: components["schemas"]["SpecifiedItemShortSummary"][];
            };
            /** @description Adventure activities covered, and their level. */
            policyAdventureActivitiesOption?: {
                adventureLevel?: string;
                adventureActivities?: string[];
            };
        };
        /**
         * PolicyDetailLongSummary
         * @description One policy transaction (purchase, amendment or cancellation) (spec §2.9).
         */
        PolicyDetailLongSummary: {
            policyDetailId?: number;
            /** @description Unique per transaction: the policy number, a hyphen and the sequence number (e.g. `TIAU260000042-1`). */
            policyDetailNumber?: string;
            /** @description Status of the transaction, e.g. `Active`. */
            status?: string;
            /**
             * @description What the transaction did.
             * @enum {string}
             */
            actionType?: "Purchase" | "Amendment" | "Cancellation";
            /** @description Of the user who did the transaction. */
            ipAddress?: string;
            /** @description Of the user who did the transaction (ISO 3166 alpha-2). */
            ipAddressCountry?: string;
            /** @description Of the user who did the transaction. */
            userAgent?: string;
            /** @description IANA time zone of the `...LocalDateTime` fields (from the home country or province). */
            presentationTimeZoneCode?: string;
            /** @description When the transaction was made, UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            createdAt?: string;
            /** @description When the transaction was made, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            createdLocalDateTime?: string;
            /** @description Start of cover (first moment of the departure day in the policy zone), UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            departureAt?: string;
            /** @description Start of cover, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            departureLocalDateTime?: string;
            /** @description End of cover (23:59:59 of the last day in the policy zone), UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            coverEndAt?: string;
            /** @description End of cover, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            coverEndLocalDateTime?: string;
            /** @description Days of cover, first and last day included. */
            coverDurationInDays?: number;
            travellers?: components["schemas"]["TravellerShortSummary"][];
            dependents?: components["schemas"]["DependentShortSummary"][];
            address?: components["schemas"]["Address"];
            financialSummary?: components["schemas"]["FinancialSummary"];
            policyCombinedOptionLongSummary?: components["schemas"]["PolicyCombinedOptionLongSummary"];
            /** @description Notes the insurer’s operators wrote on this transaction, oldest first; empty when none. */
            notes?: components["schemas"]["PolicyNote"][];
        };
        /** PolicyDocumentList */
        PolicyDocumentList: {
            /** @description Documents of every transaction of the policy, oldest transaction first. */
            documents: components["schemas"]["PolicyDocumentSummary"][];
        };
        /**
         * PolicyDocumentSummary
         * @description One kept policy document (a PDF rendered once, answered byte for byte ever after).
         */
        PolicyDocumentSummary: {
            /**
             * Format: uuid
             * @description Id of the document; fetch its PDF with it.
             */
            documentId: string;
            /**
             * @description `CERTIFICATE`: certificate of insurance of a purchase or an amendment (the cover as it stands after it); `CANCELLATION_NOTICE`: the notice of a cancellation, with its refund.
             * @enum {string}
             */
            kind: "CERTIFICATE" | "CANCELLATION_NOTICE";
            /** @description The policy transaction (1 = purchase) the document is for; each keeps its own documents. */
            sequenceNumber: number;
            /** @description Language of the document's text (`en`, `es`): one document per language the brand offers. */
            language: string;
            /** @description Suggested file name, e.g. `certificate-TIAU260000042-1-en.pdf`. */
            fileName: string;
            /** @description Instant of the transaction the document is for, UTC ISO 8601. */
            createdAt: string;
            /** @description Size of the PDF in bytes. */
            sizeBytes: number;
        };
        /**
         * PolicyEventAmounts
         * @description Money of a policy event, major units.
         */
        PolicyEventAmounts: {
            /** @description ISO 4217 code of the policy currency. */
            currency: string;
            /** @description This transaction's money: positive when the customer pays, negative when refunded. */
            transactionAmount: number;
            /** @description Every transaction of the policy so far, this one's included. */
            totalPaidToDate: number;
        };
        /**
         * PolicyEventData
         * @description `data` of `policy.issued`, `policy.amended` and `policy.cancelled`.
         * @example {
         *       "policyNumber": "TIAU260000042",
         *       "brandCode": "brandau",
         *       "sequenceNumber": 1,
         *       "actionType": "Purchase",
         *       "policyStatus": "Active",
         *       "amounts": {
         *         "currency": "AUD",
         *         "transactionAmount": 123.45,
         *         "totalPaidToDate": 123.45
         *       },
         *       "quoteId": "q_7Hh2kQ",
         *       "externalIdentifiers": {
         *         "bookingReference": "BK-10293"
         *       },
         *       "policyEventSequence": 1
         *     }
         */
        PolicyEventData: {
            /** @description The policy number, e.g. `TIAU260000042`. */
            policyNumber: string;
            /** @description The brand the policy was sold under. */
            brandCode: string;
            /** @description The policy transaction (1 = the purchase). */
            sequenceNumber: number;
            /**
             * @description The transaction.
             * @enum {string}
             */
            actionType: "Purchase" | "Amendment" | "Cancellation";
            /**
             * @description The policy after it.
             * @enum {string}
             */
            policyStatus: "Active" | "Cancelled";
            amounts: components["schemas"]["PolicyEventAmounts"];
            /** @description `policy.cancelled`: the reason the partner gave. */
            reasonCode?: string;
            /** @description `policy.cancelled`: the day cover ends (YYYY-MM-DD). */
            effectiveDate?: string;
            /** @description The quote the policy was bought from. */
            quoteId?: string;
            externalIdentifiers: components["schemas"]["EventExternalIdentifiers"];
            /** @description 1, 2, 3 … per policy, gapless, in the order the changes committed: order a policy's events by it (deliveries may arrive out of order). */
            policyEventSequence: number;
        };
        /**
         * PolicyFinancialValue
         * @description A financial value of the policy.
         */
        PolicyFinancialValue: {
            policyHeaderId?: number;
            transactionTypeId?: number;
            /** @description In the policy currency’s major unit. */
            amount?: number;
            optionTypeId?: number;
            travellerSurrogateKey?: string;
            dependentSurrogateKey?: string;
        };
        /** PolicyHolderAgeConfig */
        PolicyHolderAgeConfig: {
            homeCountryCode?: string;
            minTravellers?: number;
            maxTravellers?: number;
            minDependents?: number;
            maxDependents?: number;
            minTravellerAge?: number;
            maxTravellerAge?: number;
            minDependentAge?: number;
            maxDependentAge?: number;
            /** @description `AGEATQUOTE`: ages are taken at the quote date. */
            ageLimitTypeCode?: string;
            legalAgeOfConsent?: number;
            ambiguousAgeGap?: number;
            maxAmbiguousAge?: number;
            maxPolicyHolders?: number;
        };
        /**
         * PolicyHolderInput
         * @description A traveller or dependent on the policy (spec §2.2 PolicyHolderInput).
         */
        PolicyHolderInput: {
            /** @description Client-chosen id of this holder, echoed in per-traveller prices. */
            guid?: string;
            /** @description A dependent (child) rather than an adult traveller. */
            isDependent?: boolean;
            /** @description Age in years; used when `dateOfBirth` is absent. */
            age?: number;
            /** @description Date of birth, YYYY-MM-DD; wins over `age`. */
            dateOfBirth?: string;
            /** @description The primary policy holder who purchases. */
            isPrimary?: boolean;
            /** @description First name. */
            firstName?: string;
            /** @description Last name. */
            lastName?: string;
            /** @description Phone number. */
            phoneNumber?: string;
            /** @description E-mail address. */
            emailAddress?: string;
            travelClearOption?: components["schemas"]["TravelClearOptionInput"];
            /** @description Resident identifier. */
            residentIdentifier?: string;
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * PolicyHolderInputMinimum
         * @description Details completing the stored holder at the same position (spec §2.2 PolicyHolderInputMinimum).
         */
        PolicyHolderInputMinimum: {
            /** @description Date of birth, YYYY-MM-DD; must equal the priced one (ages are not re-priced at purchase). */
            dateOfBirth?: string;
            /** @description First name. */
            firstName?: string;
            /** @description Last name. */
            lastName?: string;
            /** @description Phone number. */
            phoneNumber?: string;
            /** @description E-mail address. */
            emailAddress?: string;
            travelClearOption?: components["schemas"]["TravelClearOptionInput"];
            /** @description Resident identifier. */
            residentIdentifier?: string;
            validation?: components["schemas"]["Validation"];
        };
        /**
         * PolicyIssuedEvent
         * @description The `policy.issued` event as delivered.
         */
        PolicyIssuedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "policy.issued";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["PolicyEventData"];
        };
        /**
         * PolicyNote
         * @description A note on a policy transaction, written by one of the insurer’s operators (never by a partner); `userId` is the operator’s id.
         * @example {
         *       "policyNoteId": 7,
         *       "policyDetailId": 42,
         *       "noteText": "Customer called to confirm the travel dates; no change needed.",
         *       "userId": 3,
         *       "createdAt": "2026-12-08T03:15:00.000Z",
         *       "createdLocalDateTime": "2026-12-08T14:15:00.000",
         *       "policyNoteReasonId": 1,
         *       "policyNoteReason": {
         *         "policyNoteReasonId": 1,
         *         "reasonText": "Customer contact",
         *         "isActive": true,
         *         "etlAt": "2026-12-05T13:00:00.000Z",
         *         "etlLocalDateTime": "2026-12-06T00:00:00.000",
         *         "displayOrder": 10,
         *         "isDefault": true
         *       }
         *     }
         */
        PolicyNote: {
            policyNoteId?: number;
            policyDetailId?: number;
            noteText?: string;
            userId?: number;
            /** @description When the note was written, UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            createdAt?: string;
            /** @description When the note was written, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            createdLocalDateTime?: string;
            policyNoteReasonId?: number;
            policyNoteReason?: components["schemas"]["PolicyNoteReason"];
        };
        /**
         * PolicyNoteReason
         * @description Why a note was written, from the insurer’s list of reasons.
         * @example {
         *       "policyNoteReasonId": 1,
         *       "reasonText": "Customer contact",
         *       "isActive": true,
         *       "etlAt": "2026-12-05T13:00:00.000Z",
         *       "etlLocalDateTime": "2026-12-06T00:00:00.000",
         *       "displayOrder": 10,
         *       "isDefault": true
         *     }
         */
        PolicyNoteReason: {
            policyNoteReasonId?: number;
            reasonText?: string;
            isActive?: boolean;
            /** @description When the reason was loaded, UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            etlAt?: string;
            /** @description When the reason was loaded, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            etlLocalDateTime?: string;
            displayOrder?: number;
            isDefault?: boolean;
        };
        /**
         * PolicyOptionLongSummary
         * @description An option bought with the policy.
         */
        PolicyOptionLongSummary: {
            name?: string;
            description?: string;
            displayOrder?: number;
            optionTypeId?: number;
            policyOptionId?: number;
            policyDetailId?: number;
            planId?: number;
        };
        /**
         * PolicySummary
         * @description The policy as it stands after its latest transaction (spec §2.8).
         */
        PolicySummary: {
            /**
             * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
             * @enum {string}
             */
            brandCode?: "brandau" | "brandnz" | "directau" | "nomad";
            /** @description Id of the latest transaction. */
            policyDetailId?: number;
            policyHeaderId?: number;
            policyNumber?: string;
            /** @description Latest version of the policy (1 after purchase). */
            sequenceNumber?: number;
            /** @description 1 Active, 2 Cancelled. */
            policyStatusId?: number;
            /**
             * @description Status of the policy.
             * @enum {string}
             */
            policyStatus?: "Active" | "Cancelled";
            /** @description 1 Active, 2 Cancelled, 3 Authorised (a purchase an underwriter approved after a referral). */
            detailStatusId?: number;
            /** @description Status of the latest transaction; mainly for policies in a manual authorisation workflow. */
            detailStatus?: string;
            /** @description 1 Purchase, 2 Amendment, 3 Cancellation. */
            policyActionTypeId?: number;
            /**
             * @description The last action on the policy.
             * @enum {string}
             */
            policyActionType?: "Purchase" | "Amendment" | "Cancellation";
            plan?: components["schemas"]["PlanShortSummary"];
            destinationRegion?: string;
            /** @description Destination names, comma separated. */
            destinationCountries?: string;
            /** @description Extended ISO-3166 alpha-3 codes, comma separated. */
            destinationCountryCodes?: string;
            referencePolicyWordingId?: number;
            regulatoryWordingTranslationName?: string;
            displayDestinationDescription?: string;
            currency?: components["schemas"]["Currency"];
            /** @description IANA time zone of the `...LocalDateTime` fields (from the home country or province). */
            presentationTimeZoneCode?: string;
            /** @description When the policy was issued, UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            policyIssuedAt?: string;
            /** @description When the policy was issued, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            policyIssuedLocalDateTime?: string;
            /** @description When the latest transaction was made, UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            detailIssuedAt?: string;
            /** @description When the latest transaction was made, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            detailIssuedLocalDateTime?: string;
            /** @description Start of cover (first moment of the departure day in the policy zone), UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            departureAt?: string;
            /** @description Start of cover, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            departureLocalDateTime?: string;
            /** @description End of cover (23:59:59 of the last day in the policy zone), UTC ISO 8601 (e.g. `2026-11-30T13:00:00.000Z`). */
            coverEndAt?: string;
            /** @description End of cover, wall-clock time in `presentationTimeZoneCode` without offset (e.g. `2026-12-01T00:00:00.000`). */
            coverEndLocalDateTime?: string;
            address?: components["schemas"]["Address"];
            policyAudit?: components["schemas"]["Audit"];
            detailAudit?: components["schemas"]["Audit"];
            /** @description The customer user the policy belongs to (0 when bought without a customer account). */
            customerId?: number;
            travellers?: components["schemas"]["TravellerShortSummary"][];
            dependents?: components["schemas"]["DependentShortSummary"][];
            transactionValueAggregateAmount?: components["schemas"]["PolicyFinancialValue"];
            /** @description The aggregate amount formatted for display, e.g. `$123.45`. */
            displayTransactionValueAggregateAmount?: string;
            authorizationPolicy?: components["schemas"]["AuthorizationPolicy"];
            /** @description Opaque key that gives access to the policy documents. */
            policyDocumentAccessGuid?: string;
            externalMemberships?: components["schemas"]["ExternalMembership"][];
            /** @description In the policy currency’s major unit. */
            excess?: number;
            binderId?: number;
        };
        /**
         * PurchaseDeclinedData
         * @description `data` of `purchase.declined`: no policy; the quote may be bought again with another card.
         */
        PurchaseDeclinedData: {
            /** @description The brand the policy was sold under. */
            brandCode: string;
            /** @description The price that was refused, major units. */
            amount: number;
            /** @description ISO 4217 code. */
            currency: string;
            /** @description `DECLINED` or `INSUFFICIENT_FUNDS`. */
            paymentResult: string;
            /** @description The gateway's reason. */
            declineReason: string | null;
            /** @description The quote the policy was bought from. */
            quoteId?: string;
            externalIdentifiers: components["schemas"]["EventExternalIdentifiers"];
        };
        /**
         * PurchaseDeclinedEvent
         * @description The `purchase.declined` event as delivered.
         */
        PurchaseDeclinedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "purchase.declined";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["PurchaseDeclinedData"];
        };
        /**
         * PurchaseRequest
         * @description Purchase request (spec §4.2, minimal payload). Prices, status, policy number and partner ids in the body are ignored.
         */
        PurchaseRequest: {
            quote: components["schemas"]["QuoteMinimum"];
            cardToken?: components["schemas"]["CardTokenInput"];
            threeDSRequestInfo?: components["schemas"]["ThreeDsRequestInfo"];
            /**
             * @description Extension: how the policy is paid. CARD (the default when absent): the tokenised card in `cardToken`. ON_ACCOUNT: owed by the partner and settled on its monthly statement, for partners with `isOnAccountPurchaseEnabled` only (else 403 `ON_ACCOUNT_NOT_ENABLED`); no `cardToken` (one sent is refused with 400 `CARD_TOKEN_NOT_ACCEPTED`). The policy is issued at once.
             * @enum {string}
             */
            paymentMethod?: "CARD" | "ON_ACCOUNT";
            validation?: components["schemas"]["Validation"];
        };
        /**
         * PurchaseResponse
         * @description Purchase outcome with the quote (spec §4.2).
         */
        PurchaseResponse: {
            quote?: components["schemas"]["Quote"];
            cardToken?: components["schemas"]["CardTokenInput"];
            threeDSRequestInfo?: components["schemas"]["ThreeDsRequestInfo"];
            /** @description The gateway's payment id of this attempt. */
            paymentIds?: string;
            threeDSResponseInfo?: components["schemas"]["ThreeDsResponseInfo"];
            /**
             * @description Outcome of the payment step; absent when no payment was tried.
             * @enum {string}
             */
            paymentResult?: "APPROVED" | "DECLINED" | "INSUFFICIENT_FUNDS" | "THREEDS_CHALLENGE_REQUIRED" | "GATEWAY_ERROR";
            /**
             * @description CARD: a tokenised payment card; ON_ACCOUNT: owed by the partner, on its monthly statement.
             * @enum {string}
             */
            paymentMethod?: "CARD" | "ON_ACCOUNT";
            validation?: components["schemas"]["Validation"];
        };
        /**
         * Quote
         * @description A quote (spec §2.2 Quote).
         * @example {
         *       "id": "q_01JD8ZQ6M4X3K9V2T7B5N1C0RA",
         *       "isNew": true,
         *       "isPurchased": false,
         *       "isPurchaseInitiated": false,
         *       "stage": "BASEQUOTE",
         *       "evaluatedAt": "2026-11-22T00:00:00.000Z",
         *       "input": {
         *         "quoteType": "SINGLETRIP",
         *         "homeAddress": {
         *           "countryCode": "AUS",
         *           "provinceCode": "NSW"
         *         },
         *         "destinationCountryCodes": [
         *           "JPN"
         *         ],
         *         "departureDate": "2026-12-01",
         *         "returnDate": "2026-12-15",
         *         "policyHolders": [
         *           {
         *             "guid": "traveller-1",
         *             "age": 34,
         *             "isPrimary": true
         *           }
         *         ]
         *       },
         *       "brandCode": "brandau",
         *       "validation": {
         *         "isValid": true,
         *         "errors": []
         *       }
         *     }
         */
        Quote: {
            /** @description Opaque quote id (server-owned). */
            id?: string;
            /** @description True on the answer that created the quote. */
            isNew?: boolean;
            /** @description The policy has been bought (server-owned). */
            isPurchased?: boolean;
            /** @description The catalogue or rate version that priced the quote before is no longer in force. */
            hasConfigChanged?: boolean;
            /** @description A purchase has started (server-owned). */
            isPurchaseInitiated?: boolean;
            /** @description The partner's session id. */
            clientSessionId?: string;
            /** @description Set once the purchase has completed (server-owned). */
            policyNumber?: string;
            stage?: components["schemas"]["QuoteStage"];
            /** @description When the quote was last priced (UTC, ISO 8601). */
            evaluatedAt?: string;
            input?: components["schemas"]["QuoteInput"];
            priceResults?: components["schemas"]["QuotePriceResult"][];
            /** @description The available plans with prices for the quoted parameters. */
            prices?: components["schemas"]["QuotePriceSummary"][];
            clientInfo?: components["schemas"]["ClientInfo"];
            audit?: components["schemas"]["QuoteAudit"];
            /** @description Customer user. */
            customerUserId?: number;
            /** @description Brand of the quote. */
            brandCode?: string;
            validation?: components["schemas"]["Validation"];
            referral?: components["schemas"]["QuoteReferral"];
        };
        /**
         * QuoteAudit
         * @description Who stored the quote and when (spec §2.1 Audit, quote form).
         */
        QuoteAudit: {
            /** @description When the quote was first stored (UTC, ISO 8601). */
            createdAt?: string;
            /** @description When the quote was last stored (UTC, ISO 8601). */
            updatedAt?: string;
            /** @description User who created the quote. */
            createdByUsername?: string;
            /** @description User who last changed the quote. */
            updatedByUsername?: string;
            /** @description User id of the creator. */
            createdByUserId?: number;
            /** @description User id of the last change. */
            updatedByUserId?: number;
        };
        /**
         * QuoteConfigResponse
         * @description Quote configuration of a brand for one quote type (spec §2.5).
         */
        QuoteConfigResponse: {
            /** @description 64-bit integer. */
            quotePanelTypeId?: number;
            /** @description Seconds this response may be reused before refreshing; also sent as `Cache-Control: max-age`. */
            expirySeconds?: number;
            /** @description Adult travellers per policy. */
            minTravellers?: number;
            /** @description Adult travellers per policy. */
            maxTravellers?: number;
            minDependents?: number;
            maxDependents?: number;
            maxPolicyHolders?: number;
            travelDurationConfigs?: components["schemas"]["TravelDurationConfig"][];
            policyHolderAgeConfigs?: components["schemas"]["PolicyHolderAgeConfig"][];
            travelRestrictionConfigs?: components["schemas"]["TravelRestrictionConfig"][];
            maxTripValuePerTraveller?: number;
        };
        /**
         * QuoteInformationRequestedEvent
         * @description The `quote.information_requested` event as delivered.
         */
        QuoteInformationRequestedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "quote.information_requested";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["ReferralEventData"];
        };
        /**
         * QuoteInput
         * @description What the partner asks to price (spec §2.2 QuoteInput).
         */
        QuoteInput: {
            /** @description Culture code, e.g. `en-AU`. */
            cultureCode?: string;
            /** @description Customer interface id. */
            customerInterfaceId?: number;
            quoteType?: components["schemas"]["QuoteType"];
            /** @description Skip the duplicate-quote check. */
            overrideDuplicateCheck?: boolean;
            /** @description Price only: the quote is not stored and has no `id`. */
            skipPersistence?: boolean;
            /** @description The chosen plan (0 = none chosen yet). */
            planId?: number;
            /** @description Reference plan. */
            quoteReferencePlanId?: number;
            homeAddress?: components["schemas"]["AddressInput"];
            alternateHomeAddress?: components["schemas"]["AddressInput"];
            /** @description Destinations. */
            destinationCountryCodes?: string[];
            /** @description Departure date (multi-trip: start of cover), YYYY-MM-DD. */
            departureDate?: string;
            /** @description Return date (multi-trip: end of the longest single trip), YYYY-MM-DD. */
            returnDate?: string;
            /** @description End of cover (multi-trip), YYYY-MM-DD. */
            coverEndDate?: string;
            /** @description A published discount code. */
            campaignCode?: string;
            /** @description Partner code; the token's partner is used for pricing. */
            partnerCode?: string;
            /** @description Total value of the trip (optional rating factor). */
            tripValue?: number;
            footprintsDonation?: components["schemas"]["FootprintsDonationInput"];
            basicOptions?: components["schemas"]["BasicOptionInput"][];
            adventureActivitiesOption?: components["schemas"]["AdventureActivitiesOptionInput"];
            specifiedItemOption?: components["schemas"]["SpecifiedItemOptionInput"];
            cancellationOption?: components["schemas"]["CancellationOptionInput"];
            /** @description Travellers and dependents. */
            policyHolders?: components["schemas"]["PolicyHolderInput"][];
            regulatoryDeclarations?: components["schemas"]["RegulatoryDeclarationInput"][];
            externalIdentifiers?: components["schemas"]["ExternalIdentifiers"];
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * QuoteInputMinimum
         * @description What the purchase adds to the stored quote (spec §2.2 QuoteInputMinimum).
         */
        QuoteInputMinimum: {
            policyHolders?: components["schemas"]["PolicyHolderInputMinimum"][];
            regulatoryDeclarations?: components["schemas"]["RegulatoryDeclarationInput"][];
            validation?: components["schemas"]["Validation"];
        };
        /**
         * QuoteMinimum
         * @description The quote to buy (spec §2.2 QuoteMinimum, plus the extension `id`).
         */
        QuoteMinimum: {
            /** @description Extension: the id of the stored quote to buy. */
            id: string;
            /** @description Ignored (server-owned). */
            isPurchaseInitiated?: boolean;
            stage?: components["schemas"]["QuoteStage"];
            input?: components["schemas"]["QuoteInputMinimum"];
            evaluatedPartner?: components["schemas"]["PartnerSummary"];
            clientInfo?: components["schemas"]["ClientInfo"];
            /** @description Ignored: the stored quote's customer is kept. */
            customerUserId?: number;
            /** @description Ignored: the path's brand is used. */
            brandCode?: string;
            validation?: components["schemas"]["Validation"];
        };
        /**
         * QuotePriceResult
         * @description Detailed price of one plan (spec §2.2 QuotePriceResult).
         */
        QuotePriceResult: {
            /** @description Plan. */
            planId?: number;
            /** @description Standard excess. */
            standardExcess?: number;
            /** @description Campaign applied. */
            campaignId?: number;
            /** @description Campaign discount in percent. */
            campaignDiscountPercentage?: number;
            basePriceResult?: components["schemas"]["BasePriceResult"];
            optionPriceResults?: components["schemas"]["OptionPriceResult"][];
        };
        /**
         * QuotePriceSummary
         * @description One available plan with its price for the quoted trip (spec §2.2 QuotePriceSummary).
         */
        QuotePriceSummary: {
            /** @description Plan. */
            planId?: number;
            /** @description Total to pay: base, options and taxes, after discounts. */
            totalPrice?: number;
            /** @description Standard excess. */
            standardExcess?: number;
            /** @description Campaign discount in percent. */
            campaignDiscountPercentage?: number;
            /** @description Campaign discount. */
            campaignDiscount?: number;
            /** @description Partner discount. */
            partnerDiscount?: number;
            basePrice?: components["schemas"]["BasePriceSummary"];
            specifiedItemOptionPrice?: components["schemas"]["OptionPriceSummary"];
            adventureActivitiesOptionPrice?: components["schemas"]["OptionPriceSummary"];
            basicOptionPrices?: components["schemas"]["OptionPriceSummary"][];
            tripCancellationPrice?: components["schemas"]["OptionPriceSummary"];
        };
        /**
         * QuoteReferral
         * @description Extension: the quote's referral to an underwriter, present while a referral applies to the quote as it is.
         */
        QuoteReferral: {
            /**
             * @description REFERRED and INFORMATION_REQUESTED: waiting for an underwriter, the quote cannot be bought; APPROVED: it can (with the loading and extra excess below); DECLINED and WITHDRAWN: it cannot.
             * @enum {string}
             */
            status: "REFERRED" | "INFORMATION_REQUESTED" | "APPROVED" | "DECLINED" | "WITHDRAWN";
            /** @description Why the quote was referred: the reason codes of the rules that fired (catalogue data per brand). */
            reasonCodes: string[];
            /** @description Since when the quote is referred (UTC, ISO 8601). */
            referredAt: string;
            /** @description When the underwriter decided (UTC, ISO 8601). */
            decidedAt?: string;
            /** @description APPROVED: the percentage added to the plan premium, priced as the UNDERWRITING_LOADING line. */
            loadingPercentage?: number;
            /** @description APPROVED: added to the policy's excess, major units of the quote currency. */
            extraExcess?: number;
            /** @description DECLINED: the underwriter’s reason. */
            declineReason?: string;
            /** @description INFORMATION_REQUESTED: what the underwriter asks for. */
            informationRequested?: string;
        };
        /**
         * QuoteReferralApprovedEvent
         * @description The `quote.referral_approved` event as delivered.
         */
        QuoteReferralApprovedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "quote.referral_approved";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["ReferralEventData"];
        };
        /**
         * QuoteReferralDeclinedEvent
         * @description The `quote.referral_declined` event as delivered.
         */
        QuoteReferralDeclinedEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "quote.referral_declined";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["ReferralEventData"];
        };
        /**
         * QuoteReferredEvent
         * @description The `quote.referred` event as delivered.
         */
        QuoteReferredEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "quote.referred";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["ReferralEventData"];
        };
        /**
         * QuoteRequest
         * @description A Quote to evaluate; `input` is required, server-owned fields (`id`, prices, audit, flags, `policyNumber`, `referral`) are ignored.
         */
        QuoteRequest: {
            /** @description Opaque quote id (server-owned). */
            id?: string;
            /** @description True on the answer that created the quote. */
            isNew?: boolean;
            /** @description The policy has been bought (server-owned). */
            isPurchased?: boolean;
            /** @description The catalogue or rate version that priced the quote before is no longer in force. */
            hasConfigChanged?: boolean;
            /** @description A purchase has started (server-owned). */
            isPurchaseInitiated?: boolean;
            /** @description The partner's session id. */
            clientSessionId?: string;
            /** @description Set once the purchase has completed (server-owned). */
            policyNumber?: string;
            stage?: components["schemas"]["QuoteStage"];
            /** @description When the quote was last priced (UTC, ISO 8601). */
            evaluatedAt?: string;
            input: components["schemas"]["QuoteInput"];
            priceResults?: components["schemas"]["QuotePriceResult"][];
            /** @description The available plans with prices for the quoted parameters. */
            prices?: components["schemas"]["QuotePriceSummary"][];
            clientInfo?: components["schemas"]["ClientInfo"];
            audit?: components["schemas"]["QuoteAudit"];
            /** @description Customer user. */
            customerUserId?: number;
            /** @description Brand of the quote. */
            brandCode?: string;
            validation?: components["schemas"]["Validation"];
            referral?: components["schemas"]["QuoteReferral"];
        };
        /**
         * QuoteStage
         * @description Stage of the purchase path (spec §3); see docs/api-contract.md "Quotes" for what each stage requires.
         * @enum {string}
         */
        QuoteStage: "INITIAL" | "BASEQUOTE" | "OPTIONS" | "DETAILS" | "MEDICAL_SCREENING" | "PAYMENT";
        /**
         * QuoteType
         * @description Single trip or annual multi-trip.
         * @enum {string}
         */
        QuoteType: "SINGLETRIP" | "MULTITRIP";
        /**
         * ReadyResponse
         * @description Whether the process can serve requests that need the database.
         */
        ReadyResponse: {
            /** @enum {string} */
            status: "ready" | "unavailable" | "draining";
            /**
             * @description The engine this process uses.
             * @enum {string}
             */
            database: "sqlite" | "postgres";
            /** @description By outbox kind (`policy-documents`, `partner-event`, `webhook-delivery`), seconds the oldest message due for delivery has waited (0: none due); read at most every 5 s. Informational: a lag never fails readiness. */
            deliveryLagSeconds?: {
                [key: string]: number;
            };
        };
        /** RedeliverRequest */
        RedeliverRequest: {
            /** @description Only to this endpoint. */
            webhookId?: string;
        };
        /** RedeliveryAnswer */
        RedeliveryAnswer: {
            /** @description Deliveries queued again (each due now, from attempt 1). */
            count: number;
        };
        /**
         * ReferralEventData
         * @description `data` of `quote.referred`, `quote.referral_approved`, `quote.referral_declined` and `quote.information_requested`. Reason codes only: the underwriter's words (a decline reason, the information asked for) are in the quote's `referral` (GET quote), never in an event.
         */
        ReferralEventData: {
            /** @description The referred quote. */
            quoteId: string;
            /** @description The brand of the quote. */
            brandCode: string;
            /**
             * @description The referral after the change (the quote's `referral.status`).
             * @enum {string}
             */
            referralStatus: "REFERRED" | "INFORMATION_REQUESTED" | "APPROVED" | "DECLINED" | "WITHDRAWN";
            /** @description The reason codes of the rules that referred the quote. */
            reasonCodes: string[];
            /** @description Since when the quote is referred (UTC). */
            referredAt: string;
            /** @description When the underwriter decided (UTC). */
            decidedAt?: string;
            /** @description `quote.referral_approved`: the loading added to the plan premium (%). */
            loadingPercentage?: number;
            /** @description `quote.referral_approved`: added to the policy's excess (major units). */
            extraExcess?: number;
            /** @description ISO 4217 code of `extraExcess`. */
            currency?: string;
        };
        /**
         * RefundBasis
         * @description How the refund is worked out:
         *     - `COOLING_OFF`: asked within the cooling-off period, taking effect by departure (no cover used): everything paid is refunded, no fee.
         *     - `PRO_RATA`: the share of what was paid for the unused cover days (fees paid are kept), less the cancellation fee; a fee never makes the customer pay.
         *     - `NONE`: the plan gives no refund at this point (e.g. an annual multi-trip plan after departure).
         * @enum {string}
         */
        RefundBasis: "COOLING_OFF" | "PRO_RATA" | "NONE";
        /**
         * RefundLine
         * @description One refund to one of the policy’s payments.
         */
        RefundLine: {
            /** @description The payment of the policy the money went back to. */
            paymentId?: string;
            /** @description Refunded to that payment, positive, in the policy currency’s major unit. */
            amount?: number;
        };
        /**
         * RegulatoryDeclarationInput
         * @description A regulatory declaration (spec §2.2).
         */
        RegulatoryDeclarationInput: {
            /** @description The customer agreed to the declarations shown in the purchase path. */
            hasAgreed?: boolean;
            /** @description The term or condition agreed to. */
            termConditionId?: number;
        };
        /** RotateWebhookSecretAnswer */
        RotateWebhookSecretAnswer: {
            /** @description The endpoint. */
            webhookId: string;
            /**
             * @description The signing secret, `whsec_` + base64 of 32 random bytes: shown only in this answer (store it now). Verify deliveries with it (Standard Webhooks).
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+Jm0s1V5pVI=
             */
            secret: string;
            /** @description Until then deliveries are signed with both secrets, UTC ISO 8601. */
            previousSecretExpiresAt: string;
        };
        /**
         * RotateWebhookSecretRequest
         * @description Optional.
         */
        RotateWebhookSecretRequest: {
            /** @description How long the previous secret keeps signing (a second signature): default 86400 (24 h), at most 7 days; 0 stops it at once. */
            overlapSeconds?: number;
        };
        /** Screening */
        Screening: {
            id: string;
            /** @description The traveller. */
            guid: string;
            /**
             * @description `STALE`: the quote changed (destinations, days of cover, plan, date of birth) since; start again.
             * @enum {string}
             */
            status: "IN_PROGRESS" | "COMPLETED" | "STALE";
            currencyCode: string;
            /** @description IN_PROGRESS: what to ask next; empty when complete may run. */
            questions: components["schemas"]["ScreeningQuestion"][];
            result?: components["schemas"]["ScreeningResult"];
        };
        /**
         * ScreeningAnswersRequest
         * @description Answers to add; answering a question again replaces its earlier answer.
         */
        ScreeningAnswersRequest: {
            answers: {
                /** @description A question id from `questions[].id`. */
                questionId: string;
                choiceCodes: string[];
            }[];
        };
        /** ScreeningChoice */
        ScreeningChoice: {
            code: string;
            text: string;
        };
        /** ScreeningConditionResult */
        ScreeningConditionResult: {
            conditionCode: string;
            /** @description In the quote's language. */
            name: string;
            /** @enum {string} */
            outcome: "AUTO_COVERED" | "COVERED" | "EXCLUDED" | "DECLINED" | "REFERRED";
            score: number;
            /** @description Major units of `currencyCode`. */
            medicalPremium: number;
            /** @description Major units of `currencyCode`. */
            excess: number;
        };
        /** ScreeningLink */
        ScreeningLink: {
            /** @description The hosted page: send the traveller there. Shown once; only its hash is stored. */
            url: string;
            /** @description ISO date-time: `SCREENING_LINK_HOURS` (24) after now, never past the start (UTC) of departure day. */
            expiresAt: string;
            /** @enum {string} */
            language: "en" | "es";
        };
        /** ScreeningLinkRequest */
        ScreeningLinkRequest: {
            /** @description The partner's page the traveller returns to, with `quoteId`, `travellerGuid` and `screeningStatus` added to its query (never conditions). An absolute `https` URL without credentials; outside production also `http` on 127.0.0.1 or localhost. */
            returnUrl: string;
            /**
             * @description The page's and the questions' language; default the quote's (`cultureCode`), else `en`.
             * @enum {string}
             */
            language?: "en" | "es";
        };
        /** ScreeningQuestion */
        ScreeningQuestion: {
            /** @description `gate.<id>`, `travelMode`, `conditions` or `<conditionCode>.<id>`. */
            id: string;
            /** @enum {string} */
            kind: "GATE" | "TRAVEL_MODE" | "CONDITIONS" | "FOLLOW_UP";
            conditionCode?: string;
            text: string;
            choices: components["schemas"]["ScreeningChoice"][];
            /** @description Several choices may be given (only `conditions`). */
            multiple: boolean;
        };
        /** ScreeningResult */
        ScreeningResult: {
            /** @description Our reference: `TC-` and 16 Crockford base-32 characters. */
            tamisReferenceNumber: string;
            /** @description YYYY-MM-DD (UTC) of completion. */
            screeningDate: string;
            authorizedPerson?: components["schemas"]["AuthorizedPersonInput"];
            /** @enum {string} */
            outcome: "NO_SCREENING_NEEDED" | "COVERED" | "COVERED_WITH_EXCLUSIONS" | "DECLINED" | "REFERRED";
            /** @description The traveller's score (1.0 = standard risk). */
            score: number;
            /** @description Empty once the health detail is purged. */
            conditions: components["schemas"]["ScreeningConditionResult"][];
            /** @description What cover for the conditions adds, major units of `currencyCode`. */
            medicalPremium: number;
            /** @description The extra excess, major units of `currencyCode`. */
            excess: number;
            /** @description UK: the customer must be pointed to a medical cover directory. */
            signposting: boolean;
        };
        /** SendDocumentsAnswer */
        SendDocumentsAnswer: {
            /** @description Key of the queued e-mail (`policy-documents:<policyNumber>:<sequenceNumber>:resend:<uuid>`): a new one per request, and the source of its Message-ID. */
            messageKey?: string;
            /**
             * @description Recorded for delivery: the delivery worker sends it within seconds, retrying with back-off (at least once, stable Message-ID). A policy without an e-mail address and no `emailAddress` given sends nothing.
             * @enum {string}
             */
            status: "QUEUED";
        };
        /**
         * SendDocumentsRequest
         * @description Optional; an empty or missing body sends to the policy holder.
         */
        SendDocumentsRequest: {
            /** @description Send to this address instead of the primary traveller's (the policy is not changed). Omitted: the primary traveller's e-mail address. */
            emailAddress?: string;
        };
        /**
         * SpecifiedItemInput
         * @description One specified item (spec §2.2).
         */
        SpecifiedItemInput: {
            /** @description Client-chosen id of the item. */
            guid?: string;
            /** @description Item name. */
            name?: string;
            /** @description Item value. */
            itemValue?: number;
            /** @description Item type id. */
            itemTypeId?: number;
            /** @description Item type code. */
            itemTypeCode?: string;
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * SpecifiedItemOptionInput
         * @description Specified items cover (spec §2.2).
         */
        SpecifiedItemOptionInput: {
            /** @description Option type code. */
            optionType?: string;
            /** @description Items covered individually. */
            specifiedItems?: components["schemas"]["SpecifiedItemInput"][];
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * SpecifiedItemShortSummary
         * @description An item covered for its declared value.
         */
        SpecifiedItemShortSummary: {
            name?: string;
            serialNumber?: string;
            currency?: components["schemas"]["Currency"];
            /** @description In the currency’s major unit. */
            itemValue?: number;
            /** @description The value formatted for display, e.g. `$1,250.00`. */
            displayItemValue?: string;
        };
        /** StartScreeningRequest */
        StartScreeningRequest: {
            authorizedPerson: components["schemas"]["AuthorizedPersonInput"];
        };
        /**
         * Statement
         * @description Your statement of one month under the brand.
         * @example {
         *       "brandCode": "brandau",
         *       "month": "2026-11",
         *       "status": "CLOSED",
         *       "from": "2026-10-31T13:00:00.000Z",
         *       "to": "2026-11-30T13:00:00.000Z",
         *       "timeZone": "Australia/Sydney",
         *       "currencyCode": "AUD",
         *       "transactions": [
         *         {
         *           "policyNumber": "CTI-AU-2026-000001",
         *           "policyDetailNumber": "CTI-AU-2026-000001-1",
         *           "action": "Purchase",
         *           "committedAt": "2026-11-02T01:02:03.000Z",
         *           "paymentMethod": "ON_ACCOUNT",
         *           "premium": 200,
         *           "discount": 0,
         *           "taxes": [
         *             {
         *               "name": "GST",
         *               "amount": 20
         *             }
         *           ],
         *           "donation": 0,
         *           "fees": 0,
         *           "total": 220
         *         }
         *       ],
         *       "totals": [
         *         {
         *           "paymentMethod": "CARD",
         *           "transactionCount": 0,
         *           "premium": 0,
         *           "discount": 0,
         *           "taxes": [],
         *           "donation": 0,
         *           "fees": 0,
         *           "total": 0
         *         },
         *         {
         *           "paymentMethod": "ON_ACCOUNT",
         *           "transactionCount": 1,
         *           "premium": 200,
         *           "discount": 0,
         *           "taxes": [
         *             {
         *               "name": "GST",
         *               "amount": 20
         *             }
         *           ],
         *           "donation": 0,
         *           "fees": 0,
         *           "total": 220
         *         }
         *       ],
         *       "onAccount": {
         *         "balanceBroughtForward": 100,
         *         "charged": 220,
         *         "credited": 0,
         *         "paymentsReceived": 100,
         *         "due": 220,
         *         "payments": [
         *           {
         *             "reference": "BANK-2026-11-07",
         *             "amount": 100,
         *             "receivedOn": "2026-11-07"
         *           }
         *         ]
         *       }
         *     }
         */
        Statement: {
            /**
             * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
             * @enum {string}
             */
            brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            /**
             * @description A calendar month of the brand’s time zone, `yyyy-mm`.
             * @example 2026-11
             */
            month: string;
            /**
             * @description `OPEN` while the month runs (and a minute after it ended); `CLOSED` after: its figures never change again.
             * @enum {string}
             */
            status: "OPEN" | "CLOSED";
            /**
             * Format: date-time
             * @description The month’s first instant (UTC), inclusive.
             */
            from: string;
            /**
             * Format: date-time
             * @description The next month’s first instant (UTC), exclusive.
             */
            to: string;
            /** @description The brand’s time zone (IANA), in which the month is counted. */
            timeZone: string;
            currencyCode: string;
            /** @description Every transaction of the month, oldest first. */
            transactions: components["schemas"]["StatementTransaction"][];
            /** @description One per payment method (`CARD`, `ON_ACCOUNT`), every one listed. */
            totals: components["schemas"]["StatementTotals"][];
            onAccount: components["schemas"]["StatementOnAccount"];
        };
        /** StatementList */
        StatementList: {
            /** @description The months in which you had a transaction or made a payment under the brand, newest first (empty when none). */
            statements: components["schemas"]["StatementMonth"][];
        };
        /**
         * StatementMonth
         * @description A month with a statement.
         */
        StatementMonth: {
            /**
             * @description A calendar month of the brand’s time zone, `yyyy-mm`.
             * @example 2026-11
             */
            month: string;
            /**
             * @description `OPEN` while the month runs (and a minute after it ended); `CLOSED` after: its figures never change again.
             * @enum {string}
             */
            status: "OPEN" | "CLOSED";
            /**
             * Format: date-time
             * @description The month’s first instant (UTC), inclusive.
             */
            from: string;
            /**
             * Format: date-time
             * @description The next month’s first instant (UTC), exclusive.
             */
            to: string;
        };
        /**
         * StatementOnAccount
         * @description What you owe for on-account purchases.
         */
        StatementOnAccount: {
            /** @description What was due at the end of the previous month. Major units of `currencyCode`. */
            balanceBroughtForward: number;
            /** @description On-account transactions that charged (purchases, amendments that cost more). Major units of `currencyCode`. */
            charged: number;
            /** @description On-account refunds (amendments that cost less, cancellations), positive. Major units of `currencyCode`. */
            credited: number;
            /** @description Payments received from you this month. Major units of `currencyCode`. */
            paymentsReceived: number;
            /** @description balanceBroughtForward + charged − credited − paymentsReceived; negative when in credit. Major units of `currencyCode`. */
            due: number;
            payments: components["schemas"]["StatementPaymentReceived"][];
        };
        /** StatementPaymentReceived */
        StatementPaymentReceived: {
            /** @description Your (or the bank’s) reference. */
            reference: string;
            /** @description What you paid. Major units of `currencyCode`. */
            amount: number;
            /**
             * Format: date
             * @description The day it was received, in the brand’s time zone.
             */
            receivedOn: string;
        };
        /** StatementTax */
        StatementTax: {
            /** @description e.g. `GST`, `Stamp duty`. */
            name: string;
            /** @description The tax. Major units of `currencyCode`. */
            amount: number;
        };
        /**
         * StatementTotals
         * @description The sums of the month’s transactions paid one way.
         */
        StatementTotals: {
            /**
             * @description How the transaction was paid: `CARD` through the card gateway, `ON_ACCOUNT` owed on this statement.
             * @enum {string}
             */
            paymentMethod: "CARD" | "ON_ACCOUNT";
            transactionCount: number;
            /** @description Premium (a change’s change of premium; negative when refunded). Major units of `currencyCode`. */
            premium: number;
            /** @description Discount taken off the premium. Major units of `currencyCode`. */
            discount: number;
            /** @description Each tax by name, in name order. */
            taxes: components["schemas"]["StatementTax"][];
            /** @description Charitable donation. Major units of `currencyCode`. */
            donation: number;
            /** @description Fees of amendments and cancellations. Major units of `currencyCode`. */
            fees: number;
            /** @description premium − discount + taxes + donation + fees; negative for a refund. Major units of `currencyCode`. */
            total: number;
        };
        /**
         * StatementTransaction
         * @description One policy transaction.
         */
        StatementTransaction: {
            policyNumber: string;
            /** @description The transaction’s detail number (policy details). */
            policyDetailNumber: string;
            /**
             * @description What the transaction was.
             * @enum {string}
             */
            action: "Purchase" | "Amendment" | "Cancellation";
            /**
             * Format: date-time
             * @description When it committed (UTC): the month it falls in.
             */
            committedAt: string;
            /**
             * @description How the transaction was paid: `CARD` through the card gateway, `ON_ACCOUNT` owed on this statement.
             * @enum {string}
             */
            paymentMethod: "CARD" | "ON_ACCOUNT";
            /** @description Premium (a change’s change of premium; negative when refunded). Major units of `currencyCode`. */
            premium: number;
            /** @description Discount taken off the premium. Major units of `currencyCode`. */
            discount: number;
            /** @description Each tax by name, in name order. */
            taxes: components["schemas"]["StatementTax"][];
            /** @description Charitable donation. Major units of `currencyCode`. */
            donation: number;
            /** @description Fees of amendments and cancellations. Major units of `currencyCode`. */
            fees: number;
            /** @description premium − discount + taxes + donation + fees; negative for a refund. Major units of `currencyCode`. */
            total: number;
        };
        /**
         * TaxComponentResult
         * @description One tax on a price (spec §2.2 TaxComponentResult).
         */
        TaxComponentResult: {
            /** @description Tax name, e.g. `GST`, `Stamp Duty (NSW)`. */
            taxName?: string;
            /** @description Rate in percent. */
            taxRatePercentage?: number;
            /** @description Tax amount. */
            taxAmount?: number;
        };
        /**
         * TaxComponentSummary
         * @description One tax on a price (spec §2.2 TaxComponentSummary).
         */
        TaxComponentSummary: {
            /** @description Tax name, e.g. `GST`, `Stamp Duty (NSW)`. */
            taxName?: string;
            /** @description Rate in percent. */
            taxRatePercentage?: number;
            /** @description Tax amount. */
            taxAmount?: number;
        };
        /**
         * TaxSummary
         * @description One tax charged on the transaction.
         */
        TaxSummary: {
            /** @description e.g. `GST`, `Stamp duty`. */
            name?: string;
            /** @description In the policy currency’s major unit. */
            amount?: number;
        };
        /** TermConditionSummary */
        TermConditionSummary: {
            /** @description 64-bit integer. */
            termConditionId?: number;
            /** @description May contain HTML links and upper-case tokens replaced per tokenReplacements. */
            customerDeclarationText?: string;
            tokenReplacements?: components["schemas"]["TokenReplacement"][];
            countryCode?: string;
            provinceCode?: string;
            /** @description 1 = purchase. */
            policyActionTypeId?: number;
            /** @description Only for trips to these destinations; absent = all. */
            destinationCountryCodes?: string[];
            /** @description Only for partners of these groups; absent = all. */
            partnerGroupIds?: number[];
        };
        /**
         * ThreeDsRequestInfo
         * @description Extension on the request (spec §2.3 ThreeDsRequestInfo): sent to continue a purchase after a 3-D Secure challenge.
         */
        ThreeDsRequestInfo: {
            /** @description Cardholder browser user agent. */
            userAgent?: string;
            /** @description Cardholder browser Accept header. */
            acceptHeader?: string;
            /** @description Cardholder browser Accept-Language. */
            acceptLanguage?: string;
            /** @description Origin of the payment page. */
            origin?: string;
            /** @description On a continuation: `CHALLENGE_COMPLETED` or `CHALLENGE_FAILED`. */
            threeDSStatus?: string;
            /** @description On a continuation: the `threeDSResponse` URL received (or its last segment, the challenge id). */
            threeDSRequest?: string;
            browserInfo?: components["schemas"]["BrowserInfo"];
        };
        /**
         * ThreeDsResponseInfo
         * @description Spec §2.3 ThreeDsResponseInfo.
         */
        ThreeDsResponseInfo: {
            /**
             * @description See docs/api-contract.md, "Payments".
             * @enum {string}
             */
            threeDSStatus?: "NOT_REQUIRED" | "FRICTIONLESS" | "CHALLENGE_REQUIRED" | "CHALLENGE_COMPLETED" | "CHALLENGE_FAILED";
            /**
             * @description `REDIRECT`: open `threeDSResponse` in the cardholder's browser.
             * @enum {string}
             */
            threeDSRequestPattern?: "REDIRECT";
            /** @description The challenge URL. */
            threeDSResponse?: string;
        };
        /**
         * TokenError
         * @description Malformed request: missing or repeated field, wrong content type, query parameters, or an unsupported grant type.
         */
        TokenError: {
            /**
             * @description RFC 6749 §5.2 code; `temporarily_unavailable` is the 429 answer, `server_error` the 500 answer.
             * @enum {string}
             */
            error: "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "temporarily_unavailable" | "server_error";
            /** @description What went wrong, for a person. Never tells whether a username exists. */
            error_description: string;
        };
        /**
         * TokenForm
         * @description application/x-www-form-urlencoded body. Unknown fields are ignored; a repeated field is invalid_request.
         */
        TokenForm: {
            /**
             * @description `password` to sign in with credentials; `refresh_token` to renew. Others: 400 `unsupported_grant_type`.
             * @example password
             * @enum {string}
             */
            grant_type: "password" | "refresh_token";
            /**
             * @description Registered client: `API` (partners), `InternalApi`, `ngPublicApp`, `mobileApp`, `ngUnderwriterApp`. Required for both grants, here or as the user name of `Authorization: Basic base64(client_id ":")` (client_secret_basic); when both are sent they must agree.
             * @example API
             */
            client_id?: string;
            /**
             * @description Clients are public: absent or empty (client_secret_post with no secret); any secret is 401 `invalid_client`.
             * @example
             */
            client_secret?: string;
            /**
             * @description For `password`: the login (compared case-insensitively).
             * @example demoa.brandau@demo.example
             */
            username?: string;
            /**
             * @description For `password`: the user’s password.
             * @example DEMOA-brandau-demo-pass
             */
            password?: string;
            /**
             * @description For `password`: interface type (1 public website, 2 customer-service website, 3 mobile app, 5 partner website, 6 underwriter website, 8 third-party website). The client must be registered for it.
             * @example 8
             */
            customerInterfaceId?: string;
            /**
             * @description Default 1 (customer); 2 employee, 3 assistance provider, 4 partner, 5 underwriter. Must match the user.
             * @example 4
             */
            userTypeId?: string;
            /**
             * @description For `refresh_token`: the refresh token to exchange (single use).
             * @example
             */
            refresh_token?: string;
        };
        /** TokenReplacement */
        TokenReplacement: {
            token?: string;
            label?: string;
            url?: string;
            underwriterContentType?: string;
        };
        /**
         * TokenResult
         * @description Token result (spec §2.4).
         */
        TokenResult: {
            /** @description JWT to send as `Authorization: Bearer <access_token>`. */
            access_token: string;
            /**
             * @description Always `Bearer`.
             * @enum {string}
             */
            token_type: "Bearer";
            /** @description Seconds until the access token expires (ACCESS_TOKEN_TTL_SECONDS, default 3600). */
            expires_in: number;
            /** @description Opaque, single-use refresh token; a new one comes with every answer. Presenting a used one revokes its whole family. */
            refresh_token?: string;
        };
        /**
         * TravelClearOptionInput
         * @description Medical screening (TravelClear) choices of one traveller (spec §2.2).
         */
        TravelClearOptionInput: {
            /** @description Medical screening option type. */
            optionType?: string;
            /** @description The traveller takes the medical screening. */
            isOptedInForScreening?: boolean;
            /** @description The traveller wants cover for the screened conditions. */
            isOptedInForCover?: boolean;
            /** @description Outcome of validating this object (filled by the server). */
            validation?: {
                /** @default false */
                isValid: boolean;
                errors?: components["schemas"]["Notification"][];
            };
        };
        /**
         * TravelClearSummary
         * @description Outcome of the traveller’s medical screening.
         */
        TravelClearSummary: {
            tamisReferenceNumber?: string;
            screeningDate?: string;
            authorizedPerson?: components["schemas"]["AuthorizedPerson"];
            isCovered?: boolean;
            excess?: number;
        };
        /** TravelDurationConfig */
        TravelDurationConfig: {
            homeCountryCode?: string;
            /** @description Minimum days ahead the departure date may be set. */
            minAdvancePurchaseDays?: number;
            /** @description Maximum days ahead the departure date may be set. */
            maxAdvancePurchaseDays?: number;
            defaultTravelDurationDays?: number;
            minTravelDurationDays?: number;
            maxTravelDurationDays?: number;
            maxTravelDurationMonths?: number;
            /** @description Longest single trip (for annual multi-trip, each trip). */
            maxTripDurationDays?: number;
        };
        /**
         * TravellerShortSummary
         * @description A traveller covered by the policy.
         */
        TravellerShortSummary: {
            travellerId?: number;
            guid?: string;
            displayOrder?: number;
            isPrimary?: boolean;
            title?: string;
            firstName?: string;
            surname?: string;
            age?: number;
            emailAddress?: string;
            landLinePhoneNumber?: string;
            mobileNumber?: string;
            dateOfBirth?: components["schemas"]["LocalDate"];
            travelClear?: components["schemas"]["TravelClearSummary"];
            authorizationPolicy?: components["schemas"]["AuthorizationPolicy"];
        };
        /** TravelRestrictionConfig */
        TravelRestrictionConfig: {
            homeCountryCode?: string;
            /** @default false */
            isHandledByLegacy: boolean;
            /**
             * @description Whether a state/province is needed to obtain a quote.
             * @default false
             */
            isProvinceRequiredForQuote: boolean;
            /** @description `NOTCOVERED`: travel inside the home country is not covered. */
            domesticTravelCoverTypeCode?: string;
            /** @description Destinations no plan covers. */
            noProductCountryCodes?: string[];
            /** @description Travel may be restricted. */
            unsafeCountryCodes?: string[];
            /** @description Travel to and from is not allowed. */
            sanctionedCountryCodes?: string[];
            /** @description Home provinces the brand does not sell to. */
            unsupportedHomeProvinceCodes?: string[];
        };
        /**
         * UpdateWebhookRequest
         * @description Only the properties sent change.
         */
        UpdateWebhookRequest: {
            /** @description Where events are POSTed. Production: `https` only, no user or password in the URL, and the host must resolve to public addresses only (loopback, private, link-local, unique-local, CGNAT, metadata and reserved addresses are refused, 400 `WEBHOOK_URL_REFUSED`). Staging also allows `http` and loopback (`http://127.0.0.1:…`, `http://localhost:…`). */
            url?: string;
            /** @description The event types this endpoint receives; empty or omitted: every type. `webhook.test` always reaches it. */
            eventTypes?: ("policy.issued" | "policy.amended" | "policy.cancelled" | "payment.captured" | "payment.refunded" | "purchase.declined" | "documents.sent" | "quote.referred" | "quote.referral_approved" | "quote.referral_declined" | "quote.information_requested" | "policy.amendment_referred" | "policy.amendment_referral_approved" | "policy.amendment_referral_declined" | "webhook.test")[];
            /** @description null clears it. */
            description?: string | null;
            /** @description false disables it (reason `PARTNER`); true re-enables it and clears `disabledReason` and `failingSince`. */
            enabled?: boolean;
        };
        /**
         * Validation
         * @description Outcome of validating an object (spec §2.1 Validation).
         */
        Validation: {
            /** @default false */
            isValid: boolean;
            errors?: components["schemas"]["Notification"][];
        };
        /**
         * WebhookEndpoint
         * @description A webhook endpoint of the partner under this brand (its signing secret is never shown again).
         * @example {
         *       "webhookId": "whe_3q2Rk7d0Tq6mYb8FvX1aLw",
         *       "url": "https://partner.example/hooks/insurance",
         *       "eventTypes": [
         *         "policy.issued",
         *         "policy.cancelled"
         *       ],
         *       "enabled": true,
         *       "createdAt": "2026-11-28T09:00:00.000Z",
         *       "updatedAt": "2026-11-28T09:00:00.000Z"
         *     }
         */
        WebhookEndpoint: {
            /** @description Id of the endpoint: `whe_` + 22 base64url characters. */
            webhookId: string;
            /** @description Where events are POSTed. */
            url: string;
            /** @description Your note about the endpoint. */
            description?: string;
            /** @description The event types this endpoint receives; empty or omitted: every type. `webhook.test` always reaches it. */
            eventTypes: ("policy.issued" | "policy.amended" | "policy.cancelled" | "payment.captured" | "payment.refunded" | "purchase.declined" | "documents.sent" | "quote.referred" | "quote.referral_approved" | "quote.referral_declined" | "quote.information_requested" | "policy.amendment_referred" | "policy.amendment_referral_approved" | "policy.amendment_referral_declined" | "webhook.test")[];
            /** @description False: nothing is delivered to it (events stay in the pull feed). */
            enabled: boolean;
            /**
             * @description Why it is disabled: `GONE` the receiver answered 410; `FAILING` no delivery succeeded for WEBHOOK_DISABLE_AFTER_DAYS (5 days); `PARTNER` you disabled it. Re-enable with PATCH `{ "enabled": true }`.
             * @enum {string}
             */
            disabledReason?: "GONE" | "FAILING" | "PARTNER";
            /** @description When it was disabled, UTC ISO 8601. */
            disabledAt?: string;
            /** @description The first failed delivery since the last success; absent while healthy, UTC ISO 8601. */
            failingSince?: string;
            /** @description After a rotation: until then deliveries carry a second signature with the previous secret, UTC ISO 8601. */
            previousSecretExpiresAt?: string;
            /** @description Created, UTC ISO 8601. */
            createdAt: string;
            /** @description Last changed, UTC ISO 8601. */
            updatedAt: string;
        };
        /**
         * WebhookEndpointCreated
         * @description The new endpoint, with its signing secret (shown once).
         */
        WebhookEndpointCreated: {
            /** @description Id of the endpoint: `whe_` + 22 base64url characters. */
            webhookId: string;
            /** @description Where events are POSTed. */
            url: string;
            /** @description Your note about the endpoint. */
            description?: string;
            /** @description The event types this endpoint receives; empty or omitted: every type. `webhook.test` always reaches it. */
            eventTypes: ("policy.issued" | "policy.amended" | "policy.cancelled" | "payment.captured" | "payment.refunded" | "purchase.declined" | "documents.sent" | "quote.referred" | "quote.referral_approved" | "quote.referral_declined" | "quote.information_requested" | "policy.amendment_referred" | "policy.amendment_referral_approved" | "policy.amendment_referral_declined" | "webhook.test")[];
            /** @description False: nothing is delivered to it (events stay in the pull feed). */
            enabled: boolean;
            /**
             * @description Why it is disabled: `GONE` the receiver answered 410; `FAILING` no delivery succeeded for WEBHOOK_DISABLE_AFTER_DAYS (5 days); `PARTNER` you disabled it. Re-enable with PATCH `{ "enabled": true }`.
             * @enum {string}
             */
            disabledReason?: "GONE" | "FAILING" | "PARTNER";
            /** @description When it was disabled, UTC ISO 8601. */
            disabledAt?: string;
            /** @description The first failed delivery since the last success; absent while healthy, UTC ISO 8601. */
            failingSince?: string;
            /** @description After a rotation: until then deliveries carry a second signature with the previous secret, UTC ISO 8601. */
            previousSecretExpiresAt?: string;
            /** @description Created, UTC ISO 8601. */
            createdAt: string;
            /** @description Last changed, UTC ISO 8601. */
            updatedAt: string;
            /**
             * @description The signing secret, `whsec_` + base64 of 32 random bytes: shown only in this answer (store it now). Verify deliveries with it (Standard Webhooks).
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+Jm0s1V5pVI=
             */
            secret: string;
        };
        /** WebhookEndpointList */
        WebhookEndpointList: {
            /** @description Endpoints, oldest first (at most 20). */
            webhooks: components["schemas"]["WebhookEndpoint"][];
        };
        /** WebhookTestAnswer */
        WebhookTestAnswer: {
            /** @description The `webhook.test` event recorded (its `webhook-id`); it is delivered to this endpoint only. */
            eventId: string;
        };
        /**
         * WebhookTestData
         * @description `data` of `webhook.test` (sent to one endpoint on request).
         */
        WebhookTestData: {
            /** @description The endpoint tested. */
            webhookId: string;
            /** @description What the event is for, for a person. */
            message: string;
        };
        /**
         * WebhookTestEvent
         * @description The `webhook.test` event as delivered.
         */
        WebhookTestEvent: {
            /**
             * @description Stable id of the event: the `webhook-id` header of every delivery of it. Deduplicate on it.
             * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "webhook.test";
            /**
             * Format: date-time
             * @description When the change it reports committed (UTC).
             */
            timestamp: string;
            data: components["schemas"]["WebhookTestData"];
        };
    };
    responses: {
        /** @description Malformed request: `MALFORMED_URL` (bad percent-encoding), `CONTROL_CHARACTER_REFUSED` (a control character where no field may hold one), `ILL_FORMED_TEXT_REFUSED` (a lone UTF-16 surrogate), `BODY_TOO_DEEP` (a JSON body nested deeper than 32 levels), `CARD_NUMBER_REFUSED` (a card number in the body, the query or the `Idempotency-Key`), `FORBIDDEN_PROPERTY` (`__proto__` and the like in a JSON body). */
        Error400: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "MALFORMED_URL",
                 *             "message": "The URL holds a malformed percent-encoding (every % must be followed by two hex digits of UTF-8)."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `REQUEST_TIMEOUT`: the request was not received in time. */
        Error408: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "REQUEST_TIMEOUT",
                 *             "message": "The request did not arrive in time; send it again on a new connection."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `HEADERS_TOO_LARGE`: the request headers are over 16 KiB. */
        Error431: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "HEADERS_TOO_LARGE",
                 *             "message": "The request headers are larger than the server accepts (16 KiB in all)."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `INTERNAL_ERROR` (`server_error` on the token endpoint): a fault of ours; only the request id is shown. */
        Error500: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "INTERNAL_ERROR",
                 *             "message": "The server could not complete the request.",
                 *             "tokens": {
                 *               "requestId": "req-7f3a9c"
                 *             }
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `DATABASE_UNAVAILABLE` while the database cannot be reached, `SHUTTING_DOWN` while the process drains; see `Retry-After`. */
        Error503: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "DATABASE_UNAVAILABLE",
                 *             "message": "The database is unavailable; retry shortly."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `PATH_SEGMENT_TOO_LONG`: a path parameter is over 100 characters. */
        Error414: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "PATH_SEGMENT_TOO_LONG",
                 *             "message": "A path segment is longer than the server accepts (100 characters)."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `REQUEST_TIMEOUT`: the request was not received in time. */
        OAuthError408: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "invalid_request",
                 *       "error_description": "The request did not arrive in time."
                 *     }
                 */
                "application/json": components["schemas"]["TokenError"];
            };
        };
        /** @description `PATH_SEGMENT_TOO_LONG`: a path parameter is over 100 characters. */
        OAuthError414: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "invalid_request",
                 *       "error_description": "A path segment is longer than the server accepts (100 characters)."
                 *     }
                 */
                "application/json": components["schemas"]["TokenError"];
            };
        };
        /** @description `HEADERS_TOO_LARGE`: the request headers are over 16 KiB. */
        OAuthError431: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "invalid_request",
                 *       "error_description": "The request headers are too large."
                 *     }
                 */
                "application/json": components["schemas"]["TokenError"];
            };
        };
        /** @description `DATABASE_UNAVAILABLE` while the database cannot be reached, `SHUTTING_DOWN` while the process drains; see `Retry-After`. */
        OAuthError503: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "temporarily_unavailable",
                 *       "error_description": "The database is unavailable; retry shortly."
                 *     }
                 */
                "application/json": components["schemas"]["TokenError"];
            };
        };
        /** @description `PAYLOAD_TOO_LARGE`: the body is over `BODY_LIMIT_BYTES`. */
        Error413: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "PAYLOAD_TOO_LARGE",
                 *             "message": "The request body is too large."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `UNSUPPORTED_MEDIA_TYPE`: a body that is not `application/json` (any method that may carry a body). */
        Error415: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "UNSUPPORTED_MEDIA_TYPE",
                 *             "message": "This endpoint does not accept that Content-Type."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `RATE_LIMITED` (`temporarily_unavailable` on the token endpoint): too many requests for this partner, address or username; see `Retry-After`. */
        Error429: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "RATE_LIMITED",
                 *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `IDEMPOTENCY_REQUEST_IN_PROGRESS`: the first request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds. */
        Error409: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "IDEMPOTENCY_REQUEST_IN_PROGRESS",
                 *             "message": "A request with this Idempotency-Key is still in progress; retry shortly.",
                 *             "property": "Idempotency-Key"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
        /** @description `IDEMPOTENCY_KEY_REUSED`: this `Idempotency-Key` was used with another request (method, path or body); use a new key. Kept for the key like the first answer. */
        Error422: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Pragma: components["headers"]["Pragma"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "validation": {
                 *         "isValid": false,
                 *         "errors": [
                 *           {
                 *             "code": "IDEMPOTENCY_KEY_REUSED",
                 *             "message": "This Idempotency-Key was already used with a different request; use a new key for a new request.",
                 *             "property": "Idempotency-Key"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorResponse"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description On every answer: the request id of the log line (the inbound `X-Request-Id` when it is a safe token, else a generated one). */
        "X-Request-Id": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description IETF draft-ietf-httpapi-ratelimit-headers: the limit that refused the request, e.g. `"quotes";q=150;w=60`. Sent on 429 answers only. */
        "RateLimit-Policy": string;
        /** @description IETF draft RateLimit: remaining quota and seconds to reset, e.g. `"quotes";r=0;t=12`. Sent on 429 only. */
        RateLimit: string;
        /** @description RFC 6750 Bearer challenge (`Basic` on the token endpoint after HTTP Basic client authentication; `Bearer realm="metrics"` on /metrics). */
        "WWW-Authenticate": string;
        /** @description On every answer: `private, max-age=<expirySeconds>` on product reads, `private, no-store` on a policy document, `no-store` on everything else (personal data, tokens, errors). */
        "Cache-Control": string;
        /** @description `no-cache` beside `Cache-Control: no-store`, for HTTP/1.0 caches. */
        Pragma: "no-cache";
        /** @description Entity tag of the answer; send it back in `If-None-Match` to get 304 while it is current. */
        ETag: string;
        /** @description `true` on an answer replayed for a repeated `Idempotency-Key`: the stored answer of the first request; nothing ran again. */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up and serving HTTP. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResponse"];
                };
            };
            400: components["responses"]["Error400"];
            408: components["responses"]["Error408"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether the process can serve requests that need the database. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadyResponse"];
                };
            };
            400: components["responses"]["Error400"];
            408: components["responses"]["Error408"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description Whether the process can serve requests that need the database. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "draining",
                     *       "database": "postgres"
                     *     }
                     */
                    "application/json": components["schemas"]["ReadyResponse"];
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus exposition format. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["Error400"];
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "METRICS_TOKEN_REQUIRED",
                     *             "message": "/metrics requires Authorization: Bearer <METRICS_TOKEN>."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "METRICS_DISABLED",
                     *             "message": "/metrics is closed: set METRICS_TOKEN to read it in production."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RFC 8414 §2 metadata of one brand’s authorization server. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "issuer": "https://api.example.com/users/brandau",
                     *       "token_endpoint": "https://api.example.com/users/brandau/token",
                     *       "grant_types_supported": [
                     *         "password",
                     *         "refresh_token"
                     *       ],
                     *       "response_types_supported": [],
                     *       "token_endpoint_auth_methods_supported": [
                     *         "none",
                     *         "client_secret_basic",
                     *         "client_secret_post"
                     *       ],
                     *       "service_documentation": "https://api.example.com/docs",
                     *       "partner_brand_codes_supported": true
                     *     }
                     */
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
            400: components["responses"]["Error400"];
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_BRAND",
                     *             "message": "Brand 'acme' does not exist.",
                     *             "property": "brandCode",
                     *             "value": "acme"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    issueToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand (`brandau`, `brandnz`, `directau`, `nomad`), or the calling partner’s own brand code, which maps to one of them: the token is then that brand’s, for that partner’s users only. Unknown: 404 `invalid_request`.
                 * @example brandau
                 */
                brandCode: string;
            };
            cookie?: never;
        };
        /** @description application/x-www-form-urlencoded body. Unknown fields are ignored; a repeated field is invalid_request. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "grant_type": "password",
                 *       "client_id": "API",
                 *       "username": "demoa.brandau@demo.example",
                 *       "password": "DEMOA-brandau-demo-pass",
                 *       "customerInterfaceId": "8",
                 *       "userTypeId": "4"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["TokenForm"];
            };
        };
        responses: {
            /** @description Token result (spec §2.4). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiYXQrand0In0.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl",
                     *       "token_type": "Bearer",
                     *       "expires_in": 3600,
                     *       "refresh_token": "b3BhcXVlLXNpbmdsZS11c2UtcmVmcmVzaC10b2tlbg"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenResult"];
                };
            };
            /** @description Malformed request: missing or repeated field, wrong content type, query parameters, or an unsupported grant type. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unsupported_grant_type",
                     *       "error_description": "grant_type must be 'password' or 'refresh_token'."
                     *     }
                     */
                    "application/json": components["schemas"]["TokenError"];
                };
            };
            /** @description Authentication failed: bad credentials or refresh token (`invalid_grant`), unknown client, or client not allowed for the interface. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_grant",
                     *       "error_description": "The username, password or user type is not valid for this brand and interface."
                     *     }
                     */
                    "application/json": components["schemas"]["TokenError"];
                };
            };
            /** @description Unknown brand or partner brand code. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "error_description": "Brand 'acme' does not exist."
                     *     }
                     */
                    "application/json": components["schemas"]["TokenError"];
                };
            };
            408: components["responses"]["OAuthError408"];
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "error_description": "The request body is too large."
                     *     }
                     */
                    "application/json": components["schemas"]["TokenError"];
                };
            };
            414: components["responses"]["OAuthError414"];
            /** @description Too many failed attempts, or too many requests, for this username or address; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "temporarily_unavailable",
                     *       "error_description": "Too many failed sign-in attempts; try again later."
                     *     }
                     */
                    "application/json": components["schemas"]["TokenError"];
                };
            };
            431: components["responses"]["OAuthError431"];
            /** @description Unexpected server error. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "server_error",
                     *       "error_description": "The server could not complete the request (request id req-7f3a9c)."
                     *     }
                     */
                    "application/json": components["schemas"]["TokenError"];
                };
            };
            503: components["responses"]["OAuthError503"];
        };
    };
    documentLinkPage: {
        parameters: {
            query?: {
                /** @description The page's language, one the brand's documents are in (`en`, `es`); any other value (or none) gives the policy's language, the brand's default. */
                lang?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The policy's `policyDocumentAccessGuid` (policy summary): a secret of at least 128 bits that works as the customer's key to the documents.
                 * @example pda_7kQ2mX9vB4nR8tW1cY5zL3hF
                 */
                policyDocumentAccessGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /** @description Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["Error400"];
            /** @description Not found: the same page for every value that opens nothing (no brand, nothing of the value). */
            404: {
                headers: {
                    /** @description Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            408: components["responses"]["Error408"];
            /** @description The link's value was real and has expired: the brand's page saying so, with its contacts, nothing of the policy. */
            410: {
                headers: {
                    /** @description Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            414: components["responses"]["Error414"];
            /** @description Too many link requests from this client address; see `Retry-After`. */
            429: {
                headers: {
                    /** @description Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    documentLinkFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The policy's `policyDocumentAccessGuid` (policy summary): a secret of at least 128 bits that works as the customer's key to the documents.
                 * @example pda_7kQ2mX9vB4nR8tW1cY5zL3hF
                 */
                policyDocumentAccessGuid: string;
                /**
                 * @description A document id from the link page.
                 * @example CERTIFICATE
                 */
                documentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF document. */
            200: {
                headers: {
                    /** @description `attachment; filename="…"`: the document's file name. */
                    "Content-Disposition": string;
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            400: components["responses"]["Error400"];
            /** @description Not found: the same page for every value that opens nothing (no brand, nothing of the value). */
            404: {
                headers: {
                    /** @description Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            408: components["responses"]["Error408"];
            /** @description The link's value was real and has expired: the brand's page saying so, with its contacts, nothing of the policy. */
            410: {
                headers: {
                    /** @description Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            414: components["responses"]["Error414"];
            /** @description Too many link requests from this client address; see `Retry-After`. */
            429: {
                headers: {
                    /** @description Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    screeningPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The link's secret value (from `url`).
                 * @example scr_Vb2m9QxT4kLp7RzN3cW8aYhE
                 */
                value: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The step the screening is at. */
            200: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["Error400"];
            /** @description Not found: the same page for every value that opens nothing. */
            404: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            408: components["responses"]["Error408"];
            /** @description The screening cannot change (the quote was bought, or it no longer screens this traveller). */
            409: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The link expired or was replaced by a newer one. */
            410: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            414: components["responses"]["Error414"];
            /** @description Too many requests from this client address; see `Retry-After`. */
            429: {
                headers: {
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    screeningPageForm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The link's secret value (from `url`).
                 * @example scr_Vb2m9QxT4kLp7RzN3cW8aYhE
                 */
                value: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "step": "who",
                 *       "csrf": "k3Jv0c9Yw1mQ2rT8sX5bN7dF4hL6pA0e",
                 *       "who": "TRAVELLER",
                 *       "firstName": "Ada",
                 *       "surname": "Lovelace",
                 *       "dateOfBirth": "1984-05-02",
                 *       "email": "ada@example.com",
                 *       "phone": "+61 400 000 000"
                 *     }
                 */
                "application/json": {
                    [key: string]: string | string[];
                };
                /**
                 * @example {
                 *       "step": "who",
                 *       "csrf": "k3Jv0c9Yw1mQ2rT8sX5bN7dF4hL6pA0e",
                 *       "who": "TRAVELLER",
                 *       "firstName": "Ada",
                 *       "surname": "Lovelace",
                 *       "dateOfBirth": "1984-05-02",
                 *       "email": "ada@example.com",
                 *       "phone": "+61 400 000 000"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    [key: string]: string | string[];
                };
            };
        };
        responses: {
            /** @description Saved: see the page again (its next step), by GET on the same URL. */
            303: {
                headers: {
                    /** @description The same page. */
                    Location: string;
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The form again, with its problems. */
            400: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The form token was wrong: nothing was stored. */
            403: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            408: components["responses"]["Error408"];
            /** @description The screening cannot change. */
            409: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The link expired or was replaced. */
            410: {
                headers: {
                    /** @description Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing. */
                    "Content-Security-Policy": string;
                    /** @description The secret URL never leaves as a referrer. */
                    "Referrer-Policy": "no-referrer";
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    /** @description Browsers keep the declared type. */
                    "X-Content-Type-Options": "nosniff";
                    /** @description Never shown in a frame. */
                    "X-Frame-Options": "DENY";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            /** @description Too many requests from this client address; see `Retry-After`. */
            429: {
                headers: {
                    /** @description Never indexed. */
                    "X-Robots-Tag": "noindex, nofollow";
                    /** @description Never kept by a browser or a proxy. */
                    "Cache-Control": "no-store";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            503: components["responses"]["Error503"];
        };
    };
    getBaseQuoteConfig: {
        parameters: {
            query?: {
                /** @example SINGLETRIP */
                quoteType?: "SINGLETRIP" | "MULTITRIP";
            };
            header?: {
                /** @description The `ETag` of an answer you hold: 304 with no body while it is current. */
                "If-None-Match"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Quote configuration of a brand for one quote type (spec §2.5). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuoteConfigResponse"];
                };
            };
            /** @description Not modified: `If-None-Match` named the current ETag. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_VALUE",
                     *             "message": "quoteType must be equal to one of the allowed values",
                     *             "property": "quoteType",
                     *             "tokens": {
                     *               "allowedValues": "SINGLETRIP,MULTITRIP"
                     *             },
                     *             "value": "X"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_BRAND",
                     *             "message": "Brand 'acme' does not exist.",
                     *             "property": "brandCode",
                     *             "value": "acme"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPlanByCode: {
        parameters: {
            query: {
                /** @example COMP */
                planCode: string;
                /** @description YYYY-MM-DD, or an ISO 8601 date-time with an offset (`Z` or `±hh:mm`) read in the brand time zone; default today. Anything else is 400 `INVALID_DATE`. */
                effectiveAt?: string;
                /** @description Only PDF documents exist. */
                preferredDocumentFileType?: "PDF" | "pdf";
                /** @description Language code (e.g. `en`, `es`, `es-MX`); unknown or absent → the brand default. */
                lang?: string;
                /**
                 * @description The caller's own partner code (the token's partner is used when absent); another partner's code answers 403 `PARTNER_NOT_ALLOWED`.
                 * @example DEMOA
                 */
                partnerCode?: string;
            };
            header?: {
                /** @description The `ETag` of an answer you hold: 304 with no body while it is current. */
                "If-None-Match"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plan configuration (spec §2.6). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanResponse"];
                };
            };
            /** @description Not modified: `If-None-Match` named the current ETag. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "planCode must have required property 'planCode'",
                     *             "property": "planCode",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_PLAN_CODE",
                     *             "message": "No plan has code 'COMPX' for this brand.",
                     *             "property": "planCode",
                     *             "value": "COMPX"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getBrandContent: {
        parameters: {
            query?: {
                /** @description Language code (e.g. `en`, `es`, `es-MX`); unknown or absent → the brand default. */
                lang?: string;
            };
            header?: {
                /** @description The `ETag` of an answer you hold: 304 with no body while it is current. */
                "If-None-Match"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Brand content (spec §2.7). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandContentResponse"];
                };
            };
            /** @description Not modified: `If-None-Match` named the current ETag. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_FORMAT",
                     *             "message": "lang must match pattern \"^[A-Za-z]{2}([-_][A-Za-z]{2})?$\"",
                     *             "property": "lang",
                     *             "tokens": {
                     *               "pattern": "^[A-Za-z]{2}([-_][A-Za-z]{2})?$"
                     *             },
                     *             "value": "x"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_BRAND",
                     *             "message": "Brand 'acme' does not exist.",
                     *             "property": "brandCode",
                     *             "value": "acme"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getBrandContentById: {
        parameters: {
            query?: {
                /** @description Language code (e.g. `en`, `es`, `es-MX`); unknown or absent → the brand default. */
                lang?: string;
            };
            header?: {
                /** @description The `ETag` of an answer you hold: 304 with no body while it is current. */
                "If-None-Match"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description Internal brand id (1–4).
                 * @example 1
                 */
                brandId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Brand content (spec §2.7). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandContentResponse"];
                };
            };
            /** @description Not modified: `If-None-Match` named the current ETag. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_TYPE",
                     *             "message": "brandId must be integer",
                     *             "property": "brandId",
                     *             "tokens": {
                     *               "type": "integer"
                     *             },
                     *             "value": "x"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_BRAND_ID",
                     *             "message": "No brand has id 9.",
                     *             "property": "brandId",
                     *             "value": "9"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getFeatureSwitches: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of an answer you hold: 304 with no body while it is current. */
                "If-None-Match"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description Insurance contract id.
                 * @example 1002
                 */
                insuranceContractId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Feature switches of an insurance contract (spec §2.7). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeaturesResponse"];
                };
            };
            /** @description Not modified: `If-None-Match` named the current ETag. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_TYPE",
                     *             "message": "insuranceContractId must be integer",
                     *             "property": "insuranceContractId",
                     *             "tokens": {
                     *               "type": "integer"
                     *             },
                     *             "value": "x"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_INSURANCE_CONTRACT",
                     *             "message": "Insurance contract 9999 does not exist for this brand.",
                     *             "property": "insuranceContractId",
                     *             "value": "9999"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPdsSummary: {
        parameters: {
            query?: {
                /** @description Language code (e.g. `en`, `es`, `es-MX`); unknown or absent → the brand default. */
                lang?: string;
                /**
                 * @description Home country (alpha-3); picks a country-specific document when one exists.
                 * @example AUS
                 */
                countryCode?: string;
                /** @example NSW */
                provinceCode?: string;
                /**
                 * @description Plan version id; picks a plan-specific document when one exists.
                 * @example 100102
                 */
                planId?: number;
            };
            header?: {
                /** @description The `ETag` of an answer you hold: 304 with no body while it is current. */
                "If-None-Match"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description Insurance contract id.
                 * @example 1002
                 */
                insuranceContractId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PDS metadata (spec §2.7); describes the document the `/pds` endpoint returns. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PdsSummaryResponse"];
                };
            };
            /** @description Not modified: `If-None-Match` named the current ETag. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_TYPE",
                     *             "message": "insuranceContractId must be integer",
                     *             "property": "insuranceContractId",
                     *             "tokens": {
                     *               "type": "integer"
                     *             },
                     *             "value": "x"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PDS_NOT_FOUND",
                     *             "message": "Insurance contract 9999 has no PDS for this selection.",
                     *             "property": "insuranceContractId",
                     *             "value": "9999"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPds: {
        parameters: {
            query?: {
                /** @description Language code (e.g. `en`, `es`, `es-MX`); unknown or absent → the brand default. */
                lang?: string;
                /**
                 * @description Home country (alpha-3); picks a country-specific document when one exists.
                 * @example AUS
                 */
                countryCode?: string;
                /** @example NSW */
                provinceCode?: string;
                /**
                 * @description Plan version id; picks a plan-specific document when one exists.
                 * @example 100102
                 */
                planId?: number;
            };
            header?: {
                /** @description The `ETag` of an answer you hold: 304 with no body while it is current. */
                "If-None-Match"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description Insurance contract id.
                 * @example 1002
                 */
                insuranceContractId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF document. */
            200: {
                headers: {
                    /** @description `inline; filename="…"`: the document's file name. */
                    "Content-Disposition": string;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Not modified: `If-None-Match` named the current ETag. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_TYPE",
                     *             "message": "insuranceContractId must be integer",
                     *             "property": "insuranceContractId",
                     *             "tokens": {
                     *               "type": "integer"
                     *             },
                     *             "value": "x"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PDS_NOT_FOUND",
                     *             "message": "Insurance contract 9999 has no PDS for this selection.",
                     *             "property": "insuranceContractId",
                     *             "value": "9999"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createQuote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        /** @description A Quote to evaluate; `input` is required, server-owned fields (`id`, prices, audit, flags, `policyNumber`, `referral`) are ignored. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "stage": "BASEQUOTE",
                 *       "input": {
                 *         "quoteType": "SINGLETRIP",
                 *         "planId": 100102,
                 *         "homeAddress": {
                 *           "countryCode": "AUS",
                 *           "provinceCode": "NSW",
                 *           "addressLine1": "1 George St",
                 *           "postalCode": "2000"
                 *         },
                 *         "destinationCountryCodes": [
                 *           "IDN"
                 *         ],
                 *         "departureDate": "2027-03-01",
                 *         "returnDate": "2027-03-14",
                 *         "policyHolders": [
                 *           {
                 *             "guid": "h1",
                 *             "dateOfBirth": "1984-05-02",
                 *             "isPrimary": true,
                 *             "firstName": "Ada",
                 *             "lastName": "Lovelace",
                 *             "emailAddress": "ada@example.com",
                 *             "phoneNumber": "+61 400 000 000"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["QuoteRequest"];
            };
        };
        responses: {
            /** @description A quote (spec §2.2 Quote). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "q_01JD8ZQ6M4X3K9V2T7B5N1C0RA",
                     *       "isNew": true,
                     *       "isPurchased": false,
                     *       "isPurchaseInitiated": false,
                     *       "stage": "BASEQUOTE",
                     *       "evaluatedAt": "2026-11-22T00:00:00.000Z",
                     *       "input": {
                     *         "quoteType": "SINGLETRIP",
                     *         "homeAddress": {
                     *           "countryCode": "AUS",
                     *           "provinceCode": "NSW"
                     *         },
                     *         "destinationCountryCodes": [
                     *           "JPN"
                     *         ],
                     *         "departureDate": "2026-12-01",
                     *         "returnDate": "2026-12-15",
                     *         "policyHolders": [
                     *           {
                     *             "guid": "traveller-1",
                     *             "age": 34,
                     *             "isPrimary": true
                     *           }
                     *         ]
                     *       },
                     *       "brandCode": "brandau",
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Quote"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "input must have required property 'input'",
                     *             "property": "input",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_BRAND",
                     *             "message": "Brand 'acme' does not exist.",
                     *             "property": "brandCode",
                     *             "value": "acme"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getQuote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description A quote id as returned when the quote was created.
                 * @example q_01JD8ZQ6M4X3K9V2T7B5N1C0RA
                 */
                quoteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A quote (spec §2.2 Quote). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "q_01JD8ZQ6M4X3K9V2T7B5N1C0RA",
                     *       "isNew": true,
                     *       "isPurchased": false,
                     *       "isPurchaseInitiated": false,
                     *       "stage": "BASEQUOTE",
                     *       "evaluatedAt": "2026-11-22T00:00:00.000Z",
                     *       "input": {
                     *         "quoteType": "SINGLETRIP",
                     *         "homeAddress": {
                     *           "countryCode": "AUS",
                     *           "provinceCode": "NSW"
                     *         },
                     *         "destinationCountryCodes": [
                     *           "JPN"
                     *         ],
                     *         "departureDate": "2026-12-01",
                     *         "returnDate": "2026-12-15",
                     *         "policyHolders": [
                     *           {
                     *             "guid": "traveller-1",
                     *             "age": 34,
                     *             "isPrimary": true
                     *           }
                     *         ]
                     *       },
                     *       "brandCode": "brandau",
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Quote"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "quoteId must NOT have more than 64 characters",
                     *             "property": "quoteId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "QUOTE_NOT_FOUND",
                     *             "message": "No quote with this id exists for this brand and partner.",
                     *             "property": "quoteId",
                     *             "value": "01a22460-6a97-71c6-aaa3-541d03ff7a02"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateQuote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description A quote id as returned when the quote was created.
                 * @example q_01JD8ZQ6M4X3K9V2T7B5N1C0RA
                 */
                quoteId: string;
            };
            cookie?: never;
        };
        /** @description A Quote to evaluate; `input` is required, server-owned fields (`id`, prices, audit, flags, `policyNumber`, `referral`) are ignored. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "stage": "DETAILS",
                 *       "input": {
                 *         "quoteType": "SINGLETRIP",
                 *         "planId": 100102,
                 *         "homeAddress": {
                 *           "countryCode": "AUS",
                 *           "provinceCode": "NSW",
                 *           "addressLine1": "1 George St",
                 *           "postalCode": "2000"
                 *         },
                 *         "destinationCountryCodes": [
                 *           "IDN"
                 *         ],
                 *         "departureDate": "2027-03-01",
                 *         "returnDate": "2027-03-14",
                 *         "policyHolders": [
                 *           {
                 *             "guid": "h1",
                 *             "dateOfBirth": "1984-05-02",
                 *             "isPrimary": true,
                 *             "firstName": "Ada",
                 *             "lastName": "Lovelace",
                 *             "emailAddress": "ada@example.com",
                 *             "phoneNumber": "+61 400 000 000"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["QuoteRequest"];
            };
        };
        responses: {
            /** @description A quote (spec §2.2 Quote). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "q_01JD8ZQ6M4X3K9V2T7B5N1C0RA",
                     *       "isNew": true,
                     *       "isPurchased": false,
                     *       "isPurchaseInitiated": false,
                     *       "stage": "BASEQUOTE",
                     *       "evaluatedAt": "2026-11-22T00:00:00.000Z",
                     *       "input": {
                     *         "quoteType": "SINGLETRIP",
                     *         "homeAddress": {
                     *           "countryCode": "AUS",
                     *           "provinceCode": "NSW"
                     *         },
                     *         "destinationCountryCodes": [
                     *           "JPN"
                     *         ],
                     *         "departureDate": "2026-12-01",
                     *         "returnDate": "2026-12-15",
                     *         "policyHolders": [
                     *           {
                     *             "guid": "traveller-1",
                     *             "age": 34,
                     *             "isPrimary": true
                     *           }
                     *         ]
                     *       },
                     *       "brandCode": "brandau",
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Quote"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "input must have required property 'input'",
                     *             "property": "input",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "QUOTE_NOT_FOUND",
                     *             "message": "No quote with this id exists for this brand and partner.",
                     *             "property": "quoteId",
                     *             "value": "01a22460-6a97-71c6-aaa3-541d03ff7a02"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "QUOTE_PURCHASED",
                     *             "message": "The quote has been purchased and can no longer change.",
                     *             "property": "quoteId"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getScreening: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description A quote id as returned when the quote was created.
                 * @example q_01JD8ZQ6M4X3K9V2T7B5N1C0RD
                 */
                quoteId: string;
                /**
                 * @description The traveller: a `policyHolders[].guid` of the quote.
                 * @example h1
                 */
                guid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a0b4-6f1e-7c2a-9d1e-2b7c9e1f0a11",
                     *       "guid": "traveller-1",
                     *       "status": "IN_PROGRESS",
                     *       "currencyCode": "AUD",
                     *       "questions": [
                     *         {
                     *           "id": "gate.a",
                     *           "kind": "GATE",
                     *           "text": "Have you a medical condition?",
                     *           "choices": [
                     *             {
                     *               "code": "YES",
                     *               "text": "Yes"
                     *             },
                     *             {
                     *               "code": "NO",
                     *               "text": "No"
                     *             }
                     *           ],
                     *           "multiple": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "guid must NOT have more than 100 characters",
                     *             "property": "guid",
                     *             "tokens": {
                     *               "limit": "100"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "SCREENING_NOT_FOUND",
                     *             "message": "No screening was started for this traveller.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    startScreening: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description A quote id as returned when the quote was created.
                 * @example q_01JD8ZQ6M4X3K9V2T7B5N1C0RD
                 */
                quoteId: string;
                /**
                 * @description The traveller: a `policyHolders[].guid` of the quote.
                 * @example h1
                 */
                guid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "authorizedPerson": {
                 *         "firstName": "Ada",
                 *         "surname": "Lovelace",
                 *         "dateOfBirth": "1984-05-02",
                 *         "email": "ada@example.com",
                 *         "phone": "+61 400 000 000"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["StartScreeningRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a0b4-6f1e-7c2a-9d1e-2b7c9e1f0a11",
                     *       "guid": "traveller-1",
                     *       "status": "IN_PROGRESS",
                     *       "currencyCode": "AUD",
                     *       "questions": [
                     *         {
                     *           "id": "gate.a",
                     *           "kind": "GATE",
                     *           "text": "Have you a medical condition?",
                     *           "choices": [
                     *             {
                     *               "code": "YES",
                     *               "text": "Yes"
                     *             },
                     *             {
                     *               "code": "NO",
                     *               "text": "No"
                     *             }
                     *           ],
                     *           "multiple": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "authorizedPerson must have required property 'authorizedPerson'",
                     *             "property": "authorizedPerson",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TRAVELLER_NOT_FOUND",
                     *             "message": "The quote has no traveller with this guid.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "SCREENING_NOT_IN_PROGRESS",
                     *             "message": "The screening is COMPLETED; start it again to change the answers.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Well-formed but not acceptable as it stands. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "NOT_OPTED_IN_FOR_SCREENING",
                     *             "message": "The traveller is not opted in for screening (`travelClearOption.isOptedInForScreening`).",
                     *             "property": "travelClearOption.isOptedInForScreening"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    answerScreening: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description A quote id as returned when the quote was created.
                 * @example q_01JD8ZQ6M4X3K9V2T7B5N1C0RD
                 */
                quoteId: string;
                /**
                 * @description The traveller: a `policyHolders[].guid` of the quote.
                 * @example h2
                 */
                guid: string;
            };
            cookie?: never;
        };
        /** @description Answers to add; answering a question again replaces its earlier answer. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "answers": [
                 *         {
                 *           "questionId": "travelMode",
                 *           "choiceCodes": [
                 *             "AIR"
                 *           ]
                 *         },
                 *         {
                 *           "questionId": "conditions",
                 *           "choiceCodes": [
                 *             "TEST_COVERED"
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ScreeningAnswersRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a0b4-6f1e-7c2a-9d1e-2b7c9e1f0a11",
                     *       "guid": "traveller-1",
                     *       "status": "IN_PROGRESS",
                     *       "currencyCode": "AUD",
                     *       "questions": [
                     *         {
                     *           "id": "gate.a",
                     *           "kind": "GATE",
                     *           "text": "Have you a medical condition?",
                     *           "choices": [
                     *             {
                     *               "code": "YES",
                     *               "text": "Yes"
                     *             },
                     *             {
                     *               "code": "NO",
                     *               "text": "No"
                     *             }
                     *           ],
                     *           "multiple": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "answers must have required property 'answers'",
                     *             "property": "answers",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "SCREENING_NOT_FOUND",
                     *             "message": "No screening was started for this traveller.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "SCREENING_NOT_IN_PROGRESS",
                     *             "message": "The screening is COMPLETED; start it again to change the answers.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    completeScreening: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description A quote id as returned when the quote was created.
                 * @example q_01JD8ZQ6M4X3K9V2T7B5N1C0RD
                 */
                quoteId: string;
                /**
                 * @description The traveller: a `policyHolders[].guid` of the quote.
                 * @example h2
                 */
                guid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a0b4-6f1e-7c2a-9d1e-2b7c9e1f0a11",
                     *       "guid": "traveller-1",
                     *       "status": "IN_PROGRESS",
                     *       "currencyCode": "AUD",
                     *       "questions": [
                     *         {
                     *           "id": "gate.a",
                     *           "kind": "GATE",
                     *           "text": "Have you a medical condition?",
                     *           "choices": [
                     *             {
                     *               "code": "YES",
                     *               "text": "Yes"
                     *             },
                     *             {
                     *               "code": "NO",
                     *               "text": "No"
                     *             }
                     *           ],
                     *           "multiple": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Screening"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "guid must NOT have more than 100 characters",
                     *             "property": "guid",
                     *             "tokens": {
                     *               "limit": "100"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "SCREENING_NOT_FOUND",
                     *             "message": "No screening was started for this traveller.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "SCREENING_INCOMPLETE",
                     *             "message": "Questions remain unanswered; answer them before completing.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createScreeningLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description A quote id as returned when the quote was created.
                 * @example q_01JD8ZQ6M4X3K9V2T7B5N1C0RD
                 */
                quoteId: string;
                /**
                 * @description The traveller: a `policyHolders[].guid` of the quote.
                 * @example h1
                 */
                guid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "returnUrl": "https://shop.example/quote"
                 *     }
                 */
                "application/json": components["schemas"]["ScreeningLinkRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://api.example.com/screening/v1/q3JtW0m1J7Z2kX8d1c9V0aH5yQ4pL6nR2sT8uW0xY3z",
                     *       "expiresAt": "2026-11-29T10:00:00.000Z",
                     *       "language": "en"
                     *     }
                     */
                    "application/json": components["schemas"]["ScreeningLink"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "returnUrl must have required property 'returnUrl'",
                     *             "property": "returnUrl",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TRAVELLER_NOT_FOUND",
                     *             "message": "The quote has no traveller with this guid.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "SCREENING_NOT_IN_PROGRESS",
                     *             "message": "The screening is COMPLETED; start it again to change the answers.",
                     *             "property": "guid"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Well-formed but not acceptable as it stands. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "NOT_OPTED_IN_FOR_SCREENING",
                     *             "message": "The traveller is not opted in for screening (`travelClearOption.isOptedInForScreening`).",
                     *             "property": "travelClearOption.isOptedInForScreening"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPolicySummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004217
                 */
                policyNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The policy as it stands after its latest transaction (spec §2.8). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicySummary"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "policyNumber must NOT have more than 64 characters",
                     *             "property": "policyNumber",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "POLICY_NOT_FOUND",
                     *             "message": "Policy 'BACAU260004217' does not exist.",
                     *             "property": "policyNumber",
                     *             "value": "BACAU260004217"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    getPolicyDetails: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004217
                 */
                policyNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every transaction of the policy, oldest first (the purchase is the first). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDetailLongSummary"][];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "policyNumber must NOT have more than 64 characters",
                     *             "property": "policyNumber",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "POLICY_NOT_FOUND",
                     *             "message": "Policy 'BACAU260004217' does not exist.",
                     *             "property": "policyNumber",
                     *             "value": "BACAU260004217"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    listPolicyDocuments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004217
                 */
                policyNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDocumentList"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "policyNumber must NOT have more than 64 characters",
                     *             "property": "policyNumber",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "POLICY_NOT_FOUND",
                     *             "message": "Policy 'BACAU260004217' does not exist.",
                     *             "property": "policyNumber",
                     *             "value": "BACAU260004217"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    getPolicyDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004217
                 */
                policyNumber: string;
                /**
                 * @description A `documentId` from the policy's document list.
                 * @example CERTIFICATE
                 */
                documentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF document. */
            200: {
                headers: {
                    /** @description `attachment; filename="…"`: the document's file name. */
                    "Content-Disposition": string;
                    /** @description Browsers keep it a PDF. */
                    "X-Content-Type-Options": "nosniff";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "documentId must NOT have more than 64 characters",
                     *             "property": "documentId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DOCUMENT_NOT_FOUND",
                     *             "message": "Document 'CERTIFICATE-9' does not exist for this policy.",
                     *             "property": "documentId",
                     *             "value": "CERTIFICATE-9"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    sendPolicyDocuments: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the same key with the same body replays the stored answer (docs/api-contract.md "Idempotency"); keys are per partner.
                 * @example send-BACAU260004217
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004217
                 */
                policyNumber: string;
            };
            cookie?: never;
        };
        /** @description Optional; an empty or missing body sends to the policy holder. */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["SendDocumentsRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendDocumentsAnswer"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "policyNumber must NOT have more than 64 characters",
                     *             "property": "policyNumber",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "POLICY_NOT_FOUND",
                     *             "message": "Policy 'BACAU260004217' does not exist.",
                     *             "property": "policyNumber",
                     *             "value": "BACAU260004217"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "The documents may be resent at most 5 times for this policy per UTC day; retry after 3600 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    purchaseQuote: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the same key with the same body replays the stored answer (docs/api-contract.md "Idempotency"); keys are per partner.
                 * @example order-q_01JD8ZQ6M4X3K9V2T7B5N1C0RB
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        /** @description Purchase request (spec §4.2, minimal payload). Prices, status, policy number and partner ids in the body are ignored. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "quote": {
                 *         "id": "q_01JD8ZQ6M4X3K9V2T7B5N1C0RB",
                 *         "input": {
                 *           "regulatoryDeclarations": [
                 *             {
                 *               "termConditionId": 1101,
                 *               "hasAgreed": true
                 *             },
                 *             {
                 *               "termConditionId": 1102,
                 *               "hasAgreed": true
                 *             },
                 *             {
                 *               "termConditionId": 1103,
                 *               "hasAgreed": true
                 *             },
                 *             {
                 *               "termConditionId": 1104,
                 *               "hasAgreed": true
                 *             },
                 *             {
                 *               "termConditionId": 1105,
                 *               "hasAgreed": true
                 *             }
                 *           ]
                 *         }
                 *       },
                 *       "paymentMethod": "ON_ACCOUNT"
                 *     }
                 */
                "application/json": components["schemas"]["PurchaseRequest"];
            };
        };
        responses: {
            /** @description Purchase outcome with the quote (spec §4.2). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PurchaseResponse"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "quote must have required property 'quote'",
                     *             "property": "quote",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "QUOTE_NOT_FOUND",
                     *             "message": "No quote with this id exists for this brand and partner.",
                     *             "property": "quote.id",
                     *             "value": "01a22460-6a97-71c6-aaa3-541d03ff7a02"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Well-formed but not acceptable as it stands. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "IDEMPOTENCY_KEY_REUSED",
                     *             "message": "This Idempotency-Key was already used with a different request; use a new key for a new request.",
                     *             "property": "Idempotency-Key"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    withdrawQuoteReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description A quote id as returned when the quote was created.
                 * @example q_01JD8ZQ6M4X3K9V2T7B5N1C0RC
                 */
                quoteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Extension: the quote's referral to an underwriter, present while a referral applies to the quote as it is. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuoteReferral"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "quoteId must NOT have more than 64 characters",
                     *             "property": "quoteId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "QUOTE_NOT_FOUND",
                     *             "message": "No quote with this id exists for this brand and partner.",
                     *             "property": "quoteId",
                     *             "value": "01a22460-6a97-71c6-aaa3-541d03ff7a02"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "REFERRAL_NOT_OPEN",
                     *             "message": "The quote has no referral waiting for an underwriter to withdraw.",
                     *             "property": "quoteId",
                     *             "tokens": {
                     *               "referralStatus": "APPROVED"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            500: components["responses"]["Error500"];
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    previewAmendment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004217
                 */
                policyNumber: string;
            };
            cookie?: never;
        };
        /** @description The policy as it should be: the whole QuoteInput (same shape and validation as a quote), not a patch. What may change depends on the plan and on whether the trip has started (docs/api-contract.md, "Changing a policy"). */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "input": {
                 *         "quoteType": "SINGLETRIP",
                 *         "planId": 100102,
                 *         "homeAddress": {
                 *           "countryCode": "AUS",
                 *           "provinceCode": "NSW",
                 *           "addressLine1": "1 George St",
                 *           "postalCode": "2000"
                 *         },
                 *         "destinationCountryCodes": [
                 *           "IDN"
                 *         ],
                 *         "departureDate": "2027-03-01",
                 *         "returnDate": "2027-03-21",
                 *         "policyHolders": [
                 *           {
                 *             "guid": "h1",
                 *             "dateOfBirth": "1984-05-02",
                 *             "isPrimary": true,
                 *             "firstName": "Ada",
                 *             "lastName": "Lovelace",
                 *             "emailAddress": "ada@example.com",
                 *             "phoneNumber": "+61 400 000 000"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["AmendmentRequest"];
            };
        };
        responses: {
            /** @description A priced amendment of a policy. With `validation.isValid` false nothing is stored and there is no `id`: fix the input and preview again. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2b9e-7d4a-4e8b-9c61-0a5d2e7f4b13",
                     *       "status": "PREVIEW",
                     *       "expiresAt": "2026-11-22T00:30:00.000Z",
                     *       "policyNumber": "TIAU260000042",
                     *       "sequenceNumber": 2,
                     *       "currencyCode": "AUD",
                     *       "input": {
                     *         "quoteType": "SINGLETRIP",
                     *         "planId": 101,
                     *         "homeAddress": {
                     *           "countryCode": "AUS",
                     *           "provinceCode": "NSW"
                     *         },
                     *         "destinationCountryCodes": [
                     *           "JPN"
                     *         ],
                     *         "departureDate": "2026-12-01",
                     *         "returnDate": "2026-12-20",
                     *         "policyHolders": [
                     *           {
                     *             "guid": "traveller-1",
                     *             "age": 34,
                     *             "isPrimary": true,
                     *             "firstName": "Alex",
                     *             "lastName": "Smith"
                     *           }
                     *         ]
                     *       },
                     *       "paidToDate": {
                     *         "premium": 100,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": 10
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": 110
                     *       },
                     *       "repriced": {
                     *         "premium": 120,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": 12
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": 132
                     *       },
                     *       "difference": {
                     *         "premium": 20,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": 2
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": 22
                     *       },
                     *       "transactionAmount": 22,
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Amendment"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "input must have required property 'input'",
                     *             "property": "input",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "POLICY_NOT_FOUND",
                     *             "message": "Policy 'BACAU260004217' does not exist.",
                     *             "property": "policyNumber",
                     *             "value": "BACAU260004217"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "POLICY_CANCELLED",
                     *             "message": "Policy 'BACAU260004217' is cancelled; it cannot be amended or cancelled again.",
                     *             "property": "policyNumber",
                     *             "value": "BACAU260004217"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    previewCancellation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004218
                 */
                policyNumber: string;
            };
            cookie?: never;
        };
        /** @description Asks what cancelling the policy would refund. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reasonCode": "TRIP_CANCELLED"
                 *     }
                 */
                "application/json": components["schemas"]["CancellationRequest"];
            };
        };
        responses: {
            /** @description A priced cancellation of a policy. With `validation.isValid` false nothing is stored and there is no `id`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "8b27e0d4-5c3f-4a19-b6e2-71d9f0c4a285",
                     *       "status": "PREVIEW",
                     *       "expiresAt": "2026-11-22T00:30:00.000Z",
                     *       "policyNumber": "TIAU260000042",
                     *       "sequenceNumber": 2,
                     *       "currencyCode": "AUD",
                     *       "reasonCode": "TRIP_CANCELLED",
                     *       "effectiveDate": "2026-11-22",
                     *       "refundBasis": "COOLING_OFF",
                     *       "coolingOffEndsAt": "2026-12-13T12:59:59.000Z",
                     *       "coverDays": 15,
                     *       "unusedCoverDays": 15,
                     *       "paidToDate": {
                     *         "premium": 100,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": 10
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": 110
                     *       },
                     *       "refund": {
                     *         "premium": -100,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": -10
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": -110
                     *       },
                     *       "refundAmount": 110,
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Cancellation"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "reasonCode must have required property 'reasonCode'",
                     *             "property": "reasonCode",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "POLICY_NOT_FOUND",
                     *             "message": "Policy 'BACAU260004217' does not exist.",
                     *             "property": "policyNumber",
                     *             "value": "BACAU260004217"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "POLICY_CHANGE_IN_PROGRESS",
                     *             "message": "Another amendment or cancellation of this policy is being confirmed; wait for its answer.",
                     *             "property": "policyNumber",
                     *             "value": "BACAU260004217"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    confirmAmendment: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Makes a retry safe: the same key with the same body replays the stored answer (docs/api-contract.md "Idempotency"); keys are per partner.
                 * @example amend-amd_01JD9A2B3C4D5E6F7G8H9J0K1M
                 */
                "Idempotency-Key": string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004217
                 */
                policyNumber: string;
                /**
                 * @description The amendment id, as returned by its preview.
                 * @example amd_01JD9A2B3C4D5E6F7G8H9J0K1M
                 */
                amendmentId: string;
            };
            cookie?: never;
        };
        /** @description Applies a previewed amendment, paying or refunding its difference. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "cardToken": {
                 *         "token": "tok_sandbox_approved",
                 *         "source": "hosted-page"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["AmendmentConfirmRequest"];
            };
        };
        responses: {
            /** @description Outcome of confirming a change: the change with its status, the payment or refunds, and the policy. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "policy": {
                     *         "policyNumber": "TIAU260000042",
                     *         "sequenceNumber": 2,
                     *         "policyStatus": "Cancelled"
                     *       },
                     *       "cancellation": {
                     *         "id": "8b27e0d4-5c3f-4a19-b6e2-71d9f0c4a285",
                     *         "status": "APPLIED",
                     *         "sequenceNumber": 2,
                     *         "refundAmount": 110
                     *       },
                     *       "paymentResult": "REFUNDED",
                     *       "paymentMethod": "CARD",
                     *       "paymentIds": "pay_7Q2M4X",
                     *       "refunds": [
                     *         {
                     *           "paymentId": "pay_7Q2M4X",
                     *           "amount": 110
                     *         }
                     *       ],
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PolicyChangeConfirmation"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "amendmentId must NOT have more than 64 characters",
                     *             "property": "amendmentId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "AMENDMENT_NOT_FOUND",
                     *             "message": "No amendment with this id exists for this policy.",
                     *             "property": "amendmentId",
                     *             "value": "amd_01JD9A2B3C4D5E6F7G8H9J0K1M"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    confirmCancellation: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Makes a retry safe: the same key with the same body replays the stored answer (docs/api-contract.md "Idempotency"); keys are per partner.
                 * @example cancel-can_01JD9A2B3C4D5E6F7G8H9J0K1N
                 */
                "Idempotency-Key": string;
            };
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004218
                 */
                policyNumber: string;
                /**
                 * @description The cancellation id, as returned by its preview.
                 * @example can_01JD9A2B3C4D5E6F7G8H9J0K1N
                 */
                cancellationId: string;
            };
            cookie?: never;
        };
        /** @description Applies a previewed cancellation and refunds it to the card(s) that paid. The body is optional: none, `{}` or `{"clientInfo": …}`. */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CancellationConfirmRequest"];
            };
        };
        responses: {
            /** @description Outcome of confirming a change: the change with its status, the payment or refunds, and the policy. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "policy": {
                     *         "policyNumber": "TIAU260000042",
                     *         "sequenceNumber": 2,
                     *         "policyStatus": "Cancelled"
                     *       },
                     *       "cancellation": {
                     *         "id": "8b27e0d4-5c3f-4a19-b6e2-71d9f0c4a285",
                     *         "status": "APPLIED",
                     *         "sequenceNumber": 2,
                     *         "refundAmount": 110
                     *       },
                     *       "paymentResult": "REFUNDED",
                     *       "paymentMethod": "CARD",
                     *       "paymentIds": "pay_7Q2M4X",
                     *       "refunds": [
                     *         {
                     *           "paymentId": "pay_7Q2M4X",
                     *           "amount": 110
                     *         }
                     *       ],
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PolicyChangeConfirmation"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "cancellationId must NOT have more than 64 characters",
                     *             "property": "cancellationId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "CANCELLATION_NOT_FOUND",
                     *             "message": "No cancellation with this id exists for this policy.",
                     *             "property": "cancellationId",
                     *             "value": "can_01JD9A2B3C4D5E6F7G8H9J0K1N"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "CANCELLATION_ALREADY_CONFIRMED",
                     *             "message": "This cancellation was already confirmed (SETTLED).",
                     *             "property": "cancellationId",
                     *             "tokens": {
                     *               "state": "SETTLED"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "PAYLOAD_TOO_LARGE",
                     *             "message": "The request body is too large."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            414: components["responses"]["Error414"];
            /** @description The body is not of the media type this endpoint accepts. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNSUPPORTED_MEDIA_TYPE",
                     *             "message": "This endpoint does not accept that Content-Type."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAmendment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004217
                 */
                policyNumber: string;
                /**
                 * @description The amendment id, as returned by its preview.
                 * @example amd_01JD9A2B3C4D5E6F7G8H9J0K1M
                 */
                amendmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A priced amendment of a policy. With `validation.isValid` false nothing is stored and there is no `id`: fix the input and preview again. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "3f1c2b9e-7d4a-4e8b-9c61-0a5d2e7f4b13",
                     *       "status": "PREVIEW",
                     *       "expiresAt": "2026-11-22T00:30:00.000Z",
                     *       "policyNumber": "TIAU260000042",
                     *       "sequenceNumber": 2,
                     *       "currencyCode": "AUD",
                     *       "input": {
                     *         "quoteType": "SINGLETRIP",
                     *         "planId": 101,
                     *         "homeAddress": {
                     *           "countryCode": "AUS",
                     *           "provinceCode": "NSW"
                     *         },
                     *         "destinationCountryCodes": [
                     *           "JPN"
                     *         ],
                     *         "departureDate": "2026-12-01",
                     *         "returnDate": "2026-12-20",
                     *         "policyHolders": [
                     *           {
                     *             "guid": "traveller-1",
                     *             "age": 34,
                     *             "isPrimary": true,
                     *             "firstName": "Alex",
                     *             "lastName": "Smith"
                     *           }
                     *         ]
                     *       },
                     *       "paidToDate": {
                     *         "premium": 100,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": 10
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": 110
                     *       },
                     *       "repriced": {
                     *         "premium": 120,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": 12
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": 132
                     *       },
                     *       "difference": {
                     *         "premium": 20,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": 2
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": 22
                     *       },
                     *       "transactionAmount": 22,
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Amendment"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "amendmentId must NOT have more than 64 characters",
                     *             "property": "amendmentId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "AMENDMENT_NOT_FOUND",
                     *             "message": "No amendment with this id exists for this policy.",
                     *             "property": "amendmentId",
                     *             "value": "amd_01JD9A2B3C4D5E6F7G8H9J0K1M"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCancellation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The policy number, e.g. `TIAU260000042`.
                 * @example BACAU260004218
                 */
                policyNumber: string;
                /**
                 * @description The cancellation id, as returned by its preview.
                 * @example can_01JD9A2B3C4D5E6F7G8H9J0K1N
                 */
                cancellationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A priced cancellation of a policy. With `validation.isValid` false nothing is stored and there is no `id`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "8b27e0d4-5c3f-4a19-b6e2-71d9f0c4a285",
                     *       "status": "PREVIEW",
                     *       "expiresAt": "2026-11-22T00:30:00.000Z",
                     *       "policyNumber": "TIAU260000042",
                     *       "sequenceNumber": 2,
                     *       "currencyCode": "AUD",
                     *       "reasonCode": "TRIP_CANCELLED",
                     *       "effectiveDate": "2026-11-22",
                     *       "refundBasis": "COOLING_OFF",
                     *       "coolingOffEndsAt": "2026-12-13T12:59:59.000Z",
                     *       "coverDays": 15,
                     *       "unusedCoverDays": 15,
                     *       "paidToDate": {
                     *         "premium": 100,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": 10
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": 110
                     *       },
                     *       "refund": {
                     *         "premium": -100,
                     *         "discount": 0,
                     *         "taxes": [
                     *           {
                     *             "name": "GST",
                     *             "amount": -10
                     *           }
                     *         ],
                     *         "footprintsDonation": 0,
                     *         "fees": [],
                     *         "transactionAmount": -110
                     *       },
                     *       "refundAmount": 110,
                     *       "createdAt": "2026-11-22T00:00:00.000Z",
                     *       "validation": {
                     *         "isValid": true,
                     *         "errors": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Cancellation"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "cancellationId must NOT have more than 64 characters",
                     *             "property": "cancellationId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "CANCELLATION_NOT_FOUND",
                     *             "message": "No cancellation with this id exists for this policy.",
                     *             "property": "cancellationId",
                     *             "value": "can_01JD9A2B3C4D5E6F7G8H9J0K1N"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency is unavailable; retry later. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "DATABASE_UNAVAILABLE",
                     *             "message": "The database is unavailable; retry shortly."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "MALFORMED_URL",
                     *             "message": "The URL holds a malformed percent-encoding (every % must be followed by two hex digits of UTF-8)."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_BRAND",
                     *             "message": "Brand 'acme' does not exist.",
                     *             "property": "brandCode",
                     *             "value": "acme"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://partner.example/hooks/insurance"
                 *     }
                 */
                "application/json": components["schemas"]["CreateWebhookRequest"];
            };
        };
        responses: {
            /** @description The new endpoint, with its signing secret (shown once). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointCreated"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "url must have required property 'url'",
                     *             "property": "url",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_BRAND",
                     *             "message": "Brand 'acme' does not exist.",
                     *             "property": "brandCode",
                     *             "value": "acme"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_LIMIT_REACHED",
                     *             "message": "At most 10 webhook endpoints per brand; delete one first."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The endpoint id (`whe_…`).
                 * @example whe_3q2Rk7d0Tq6mYb8FvX1aLw
                 */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A webhook endpoint of the partner under this brand (its signing secret is never shown again). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhookId": "whe_3q2Rk7d0Tq6mYb8FvX1aLw",
                     *       "url": "https://partner.example/hooks/insurance",
                     *       "eventTypes": [
                     *         "policy.issued",
                     *         "policy.cancelled"
                     *       ],
                     *       "enabled": true,
                     *       "createdAt": "2026-11-28T09:00:00.000Z",
                     *       "updatedAt": "2026-11-28T09:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "webhookId must NOT have more than 64 characters",
                     *             "property": "webhookId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_NOT_FOUND",
                     *             "message": "Webhook endpoint 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' does not exist.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The endpoint id (`whe_…`).
                 * @example whe_8t4Wn1c6Zp0sLd3GyH7kQe
                 */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "webhookId must NOT have more than 64 characters",
                     *             "property": "webhookId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_NOT_FOUND",
                     *             "message": "Webhook endpoint 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' does not exist.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The endpoint id (`whe_…`).
                 * @example whe_3q2Rk7d0Tq6mYb8FvX1aLw
                 */
                webhookId: string;
            };
            cookie?: never;
        };
        /** @description Only the properties sent change. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Policy events for the booking site"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateWebhookRequest"];
            };
        };
        responses: {
            /** @description A webhook endpoint of the partner under this brand (its signing secret is never shown again). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhookId": "whe_3q2Rk7d0Tq6mYb8FvX1aLw",
                     *       "url": "https://partner.example/hooks/insurance",
                     *       "eventTypes": [
                     *         "policy.issued",
                     *         "policy.cancelled"
                     *       ],
                     *       "enabled": true,
                     *       "createdAt": "2026-11-28T09:00:00.000Z",
                     *       "updatedAt": "2026-11-28T09:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "webhookId must NOT have more than 64 characters",
                     *             "property": "webhookId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_NOT_FOUND",
                     *             "message": "Webhook endpoint 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' does not exist.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The endpoint id (`whe_…`).
                 * @example whe_3q2Rk7d0Tq6mYb8FvX1aLw
                 */
                webhookId: string;
            };
            cookie?: never;
        };
        /** @description Optional. */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["RotateWebhookSecretRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotateWebhookSecretAnswer"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "webhookId must NOT have more than 64 characters",
                     *             "property": "webhookId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_NOT_FOUND",
                     *             "message": "Webhook endpoint 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' does not exist.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The endpoint id (`whe_…`).
                 * @example whe_3q2Rk7d0Tq6mYb8FvX1aLw
                 */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestAnswer"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "webhookId must NOT have more than 64 characters",
                     *             "property": "webhookId",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_NOT_FOUND",
                     *             "message": "Webhook endpoint 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' does not exist.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_DISABLED",
                     *             "message": "Webhook endpoint 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' is disabled; enable it first.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "At most 10 test events per partner per UTC hour; retry after 3600 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /**
                 * @description Answer the events published after this one (the last id of your previous page); absent: from the first.
                 * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
                 */
                after?: string;
                /**
                 * @description Events per page (default 100, at most 1000).
                 * @example 10
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the pull feed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventFeed"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_FORMAT",
                     *             "message": "after must match pattern \"^evt_[A-Za-z0-9_-]{22}$\"",
                     *             "property": "after",
                     *             "tokens": {
                     *               "pattern": "^evt_[A-Za-z0-9_-]{22}$"
                     *             },
                     *             "value": "x"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "EVENT_NOT_FOUND",
                     *             "message": "Event 'evt_Qm9uZGF5LCAxIFNlcCAyMD' does not exist.",
                     *             "property": "after",
                     *             "value": "evt_Qm9uZGF5LCAxIFNlcCAyMD"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description An event id (`evt_…`).
                 * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
                 */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event and every attempt to deliver it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventDetail"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_FORMAT",
                     *             "message": "eventId must match pattern \"^evt_[A-Za-z0-9_-]{22}$\"",
                     *             "property": "eventId",
                     *             "tokens": {
                     *               "pattern": "^evt_[A-Za-z0-9_-]{22}$"
                     *             },
                     *             "value": "x"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "EVENT_NOT_FOUND",
                     *             "message": "Event 'evt_Qm9uZGF5LCAxIFNlcCAyMD' does not exist.",
                     *             "property": "eventId",
                     *             "value": "evt_Qm9uZGF5LCAxIFNlcCAyMD"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    redeliverEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description An event id (`evt_…`).
                 * @example evt_Qm9uZGF5LCAxIFNlcCAyMD
                 */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["RedeliverRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "count": 3
                     *     }
                     */
                    "application/json": components["schemas"]["RedeliveryAnswer"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INVALID_FORMAT",
                     *             "message": "eventId must match pattern \"^evt_[A-Za-z0-9_-]{22}$\"",
                     *             "property": "eventId",
                     *             "tokens": {
                     *               "pattern": "^evt_[A-Za-z0-9_-]{22}$"
                     *             },
                     *             "value": "x"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "EVENT_NOT_FOUND",
                     *             "message": "Event 'evt_Qm9uZGF5LCAxIFNlcCAyMD' does not exist.",
                     *             "property": "eventId",
                     *             "value": "evt_Qm9uZGF5LCAxIFNlcCAyMD"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_DISABLED",
                     *             "message": "Webhook endpoint 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' is disabled; enable it first.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "At most 100 deliveries may be redelivered per partner per UTC hour, and fewer than this request's are left; retry after 1800 s, or redeliver fewer."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    redeliverEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "from": "2027-02-01T00:00:00Z",
                 *       "to": "2027-02-02T00:00:00Z",
                 *       "failedOnly": false
                 *     }
                 */
                "application/json": components["schemas"]["BulkRedeliverRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "count": 3
                     *     }
                     */
                    "application/json": components["schemas"]["RedeliveryAnswer"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "FIELD_REQUIRED",
                     *             "message": "from must have required property 'from'",
                     *             "property": "from",
                     *             "tokens": {}
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_NOT_FOUND",
                     *             "message": "Webhook 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' has no delivery of this event.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            /** @description The request conflicts with the current state. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "WEBHOOK_DISABLED",
                     *             "message": "Webhook endpoint 'whe_3q2Rk7d0Tq6mYb8FvX1aLw' is disabled; enable it first.",
                     *             "property": "webhookId",
                     *             "value": "whe_3q2Rk7d0Tq6mYb8FvX1aLw"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            413: components["responses"]["Error413"];
            414: components["responses"]["Error414"];
            415: components["responses"]["Error415"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "At most 100 deliveries may be redelivered per partner per UTC hour, and fewer than this request's are left; retry after 1800 s, or redeliver fewer."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    listStatements: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statements": [
                     *         {
                     *           "month": "2026-11",
                     *           "status": "OPEN",
                     *           "from": "2026-10-31T13:00:00.000Z",
                     *           "to": "2026-11-30T13:00:00.000Z"
                     *         },
                     *         {
                     *           "month": "2026-10",
                     *           "status": "CLOSED",
                     *           "from": "2026-09-30T14:00:00.000Z",
                     *           "to": "2026-10-31T13:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["StatementList"];
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "MALFORMED_URL",
                     *             "message": "The URL holds a malformed percent-encoding (every % must be followed by two hex digits of UTF-8)."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "UNKNOWN_BRAND",
                     *             "message": "Brand 'acme' does not exist.",
                     *             "property": "brandCode",
                     *             "value": "acme"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    getStatement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The brand: `brandau`, `brandnz`, `directau` or `nomad`.
                 * @example brandau
                 */
                brandCode: "brandau" | "brandnz" | "directau" | "nomad";
                /**
                 * @description The month, `yyyy-mm` (e.g. `2026-11`), in the brand’s time zone.
                 * @example 2027-02
                 */
                month: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The statement, in the representation `Accept` asks for: `application/json` (the default), `text/csv` (one row per transaction, then totals and the on-account rows: docs/api-contract.md "Statements"), or `application/pdf` (the tax invoice of the on-account part). */
            200: {
                headers: {
                    /** @description The answer depends on `Accept`. */
                    Vary: "Accept";
                    /** @description CSV and PDF only: `attachment; filename="…"`. */
                    "Content-Disposition"?: string;
                    /** @description CSV and PDF only: browsers keep the media type. */
                    "X-Content-Type-Options"?: "nosniff";
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Statement"];
                    "text/csv": string;
                    "application/pdf": string;
                };
            };
            /** @description Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOO_LONG",
                     *             "message": "month must NOT have more than 64 characters",
                     *             "property": "month",
                     *             "tokens": {
                     *               "limit": "64"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "TOKEN_REQUIRED",
                     *             "message": "This endpoint requires an Authorization: Bearer <access token> header."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "BRAND_NOT_ALLOWED",
                     *             "message": "The access token was issued for brand 'brandau', not 'brandnz'.",
                     *             "property": "brandCode",
                     *             "value": "brandnz"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unknown brand, route or resource (also when the resource belongs to another partner). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "STATEMENT_NOT_FOUND",
                     *             "message": "There is no statement for 2026-10: nothing happened on your account that month.",
                     *             "property": "month",
                     *             "value": "2026-10"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            408: components["responses"]["Error408"];
            414: components["responses"]["Error414"];
            /** @description Too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "RATE_LIMITED",
                     *             "message": "Too many quotes requests for partner DEMOA; retry after 12 s."
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            431: components["responses"]["Error431"];
            /** @description Unexpected server error; the body carries only the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Pragma: components["headers"]["Pragma"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "validation": {
                     *         "isValid": false,
                     *         "errors": [
                     *           {
                     *             "code": "INTERNAL_ERROR",
                     *             "message": "The server could not complete the request.",
                     *             "tokens": {
                     *               "requestId": "req-7f3a9c"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            503: components["responses"]["Error503"];
        };
    };
    "on-policy.issued": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyIssuedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-policy.amended": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyAmendedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-policy.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyCancelledEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-payment.captured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCapturedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-payment.refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentRefundedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-purchase.declined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PurchaseDeclinedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-documents.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DocumentsSentEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-quote.referred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuoteReferredEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-quote.referral_approved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuoteReferralApprovedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-quote.referral_declined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuoteReferralDeclinedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-quote.information_requested": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuoteInformationRequestedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-policy.amendment_referred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyAmendmentReferredEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-policy.amendment_referral_approved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyAmendmentReferralApprovedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-policy.amendment_referral_declined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyAmendmentReferralDeclinedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "on-webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
