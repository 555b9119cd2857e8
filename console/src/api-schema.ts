// Generated from the service's OpenAPI document (/api/schema/) by `npm run console:types`.
// Do not edit: change the TypeBox schemas, then run the command again.

export interface paths {
    "/users/restore-password/{code}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Password-restore page (HTML form)
         * @description The page of the e-mailed password-restore link (variant B): HTML, errors included, outside `/api/v1/`. GET shows a form (404 page when the link is unknown, expired or used); the form posts `application/x-www-form-urlencoded` `password` and `repeat_password` to the same URL: 200 page when the password is set (every token of the user issued before is then refused); 400 page with the form again (the code is not spent) for a mismatch, a password outside 8 to 128 characters or a common password (never sent upstream); 400 page for an expired or used link. Each POST that reaches the code is an attempt, as with `restore_password/` (5 per code, `RESTORE_ATTEMPTS_PER_DAY` per account). Rate-limited per client address with the restore endpoints (429 page with `Retry-After`).
         */
        get: operations["showRestorePasswordPage"];
        put?: never;
        /**
         * Password-restore page (HTML form)
         * @description The page of the e-mailed password-restore link (variant B): HTML, errors included, outside `/api/v1/`. GET shows a form (404 page when the link is unknown, expired or used); the form posts `application/x-www-form-urlencoded` `password` and `repeat_password` to the same URL: 200 page when the password is set (every token of the user issued before is then refused); 400 page with the form again (the code is not spent) for a mismatch, a password outside 8 to 128 characters or a common password (never sent upstream); 400 page for an expired or used link. Each POST that reaches the code is an attempt, as with `restore_password/` (5 per code, `RESTORE_ATTEMPTS_PER_DAY` per account). Rate-limited per client address with the restore endpoints (429 page with `Retry-After`).
         */
        post: operations["submitRestorePasswordPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/jwt/token/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with the upstream credentials
         * @description Rate-limited per client address and per username (`AUTH_RATE_LIMIT_PER_MINUTE` attempts per minute, fixed windows; every attempt counts): 429 `{"detail", "code": "throttled"}` with `Retry-After` in seconds. Wrong passwords are also bounded per account over 24 hours, counted on every instance: `AUTH_FAILURES_PER_DAY` (default 100) from one client address (IPv6: its /64) and `AUTH_ACCOUNT_FAILURES_PER_DAY` (default 1000) from all addresses; beyond, every login of that account (from that address) is 429 `throttled` with `Retry-After` until 24 hours after its first counted failure, the right password included. A successful login does not count.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/jwt/refresh/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refresh a still valid access token (within the refresh window)
         * @description Answers a new token with a new `exp` and the same `orig_iat`. Refused with 400 `{"non_field_errors": ["..."]}`, as djangorestframework-jwt answers: a token that does not verify or has expired (`Signature has expired.`), the token of a user that no longer exists (`User doesn't exist.`), a token issued before the user's password was changed or reset (`Session ended (password changed or reset): log in again.`), and one past `orig_iat + JWT_REFRESH_WINDOW_SECONDS` (`Refresh has expired.`).
         */
        post: operations["refreshToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/carts/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the carts available to the user (staff: all carts) */
        get: operations["listCarts"];
        put?: never;
        /** Create a cart (in a store, or with no store: the customer warehouse) */
        post: operations["createCart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/carts/stats/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Total quantity and item lines of the filtered carts */
        get: operations["getCartStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/carts/time-series/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Carts (or their item lines) per UTC month, week, day or hour of creation */
        get: operations["getCartTimeSeries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/carts/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One cart, in list form */
        get: operations["getCart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/carts/{id}/checkout/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Check out: place the order upstream, exactly once
         * @description Uses `Authorization-Upstream` when sent, else the service account. A cart that has a checkout record answers that record. 409 `checkout_in_progress` while another checkout of the cart is in flight (retry). Upstream 503 JSON is passed through and flags the cart with `checkout_availability_error`. 502 `upstream_error` when the ERP placed the order but its answer cannot be stored: the cart is checked out with no record yet, and the next checkout asks the ERP again (decision 0001).
         */
        patch: operations["checkoutCart"];
        trace?: never;
    };
    "/api/v1/items/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lines of the carts available to the user, optionally of one cart */
        get: operations["listItems"];
        put?: never;
        /**
         * Add a line to a cart; the same part number merges into its line
         * @description Answers 201 with the line as it now stands (merged quantity included).
         */
        post: operations["createItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/items/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a line from a cart */
        delete: operations["deleteItem"];
        options?: never;
        head?: never;
        /** Change a line's quantity */
        patch: operations["updateItem"];
        trace?: never;
    };
    "/api/v1/controls/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List controls (customers: their own; staff and admins: all)
         * @description Newest first (`ordering`: `created` or `-created`). Filters: `status`, `store` (store id), `user` (user id; a customer still sees only their own), `is_random`, `created_after`, `created_before` (as the cart list's: a date or a date-time; an unreadable one is a 400 on the parameter). Random controls are drawn on checkout of a cart with a store: with N = the store's `carts_for_random_control` (0: never), a checkout is drawn with probability 1/N; under the option `criteria_for_random_controls = users` only the user's first checkout in that store per UTC day is drawn on. A drawn control is pending, `is_random: true`, `controller: null`, and holds the user's active carts in that store.
         */
        get: operations["listControls"];
        put?: never;
        /**
         * Control the active carts of a user in a store (administrators)
         * @description Attaches every cart of `user` in `store` that is active now (within the store’s `active_period` since its last activity, checked out or not). No active cart: 400 `non_field_errors`. An unknown user or store is a 400 on that field. `controller` is the calling administrator; `verified_at` is null while pending and set when the control is created `verified`.
         */
        post: operations["createControl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/controls/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One control (customers: only their own) */
        get: operations["getControl"];
        put?: never;
        post?: never;
        /**
         * Reject a pending control (administrators)
         * @description Removes a `pending` control and its link to the carts: 204, no body (the carts stay as they are). The interface knows only `pending` and `verified`, so a rejected control is not kept. A verified control is a record of a check made: 400 `non_field_errors`, and it stays. Unknown id: 404. No notification is sent. The rejection is kept in the audit trail (`GET audit-events/`): who, when, and the control as it was.
         */
        delete: operations["rejectControl"];
        options?: never;
        head?: never;
        /**
         * Verify a control (administrators)
         * @description The only transition is `pending` → `verified`, which sets `verified_at`. Verifying a control that is already verified answers 200 and changes nothing (`verified_at` keeps its first value), so a retried request is harmless. `status: "pending"` is a 400 on `status`: a verification cannot be undone. The answer is the update form of interface.md: `cart` (the lowest cart id of the control, or null) in place of `carts`, and no `store` or `controller`; `GET controls/{id}/` gives the full form.
         */
        patch: operations["verifyControl"];
        trace?: never;
    };
    "/api/v1/controls/stats/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Controls of a period by outcome and kind (staff and administrators)
         * @description The controls created in the period (`created_after`, `created_before`: as the control list's, a date or a date-time) in `store` (store id; omitted: all stores), counted by kind (`random`: drawn at checkout; `chosen`: created by an administrator) and by what became of them: `created` = `verified` + `rejected` + `pending`. Rejected controls are gone from `GET controls/` but counted here, with their kind. `by_store=True` adds `stores`: the same figures for each store that had a control in the period. Read from rollups kept in the transaction of every create, verify and reject, so they are exact. Customers: 403.
         */
        get: operations["getControlStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shopping-lists/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user's shopping lists, each with its items
         * @description Shopping lists are personal: only their owner sees or changes them (staff and admins included); another user's list or item is 404, and another user's list or cart named in a body is a 400 on that field. Newest first by default (`ordering`: `created`, `name`). `to_ckeckin` (spelled so): `True` keeps the lists that have no cart and at least one item (ready to be scanned into a cart); `False` keeps all the others. The cart a list is linked to is not part of the representation.
         */
        get: operations["listShoppingLists"];
        put?: never;
        /**
         * Create a shopping list
         * @description Answers 201 with an empty body; the `Location` header holds the absolute URL of the new list (`/api/v1/shopping-lists/{id}/`), to GET it. Names are trimmed and must not be blank; at most 200 characters.
         */
        post: operations["createShoppingList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shopping-lists/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One shopping list with its items
         * @description Shopping lists are personal: only their owner sees or changes them (staff and admins included); another user's list or item is 404, and another user's list or cart named in a body is a 400 on that field.
         */
        get: operations["getShoppingList"];
        put?: never;
        post?: never;
        /**
         * Delete a shopping list and its items
         * @description Answers 204. Shopping lists are personal: only their owner sees or changes them (staff and admins included); another user's list or item is 404, and another user's list or cart named in a body is a 400 on that field.
         */
        delete: operations["deleteShoppingList"];
        options?: never;
        head?: never;
        /**
         * Rename a list, or link it to a cart (or unlink it with null)
         * @description `cart` is the id of one of the user's own carts (any state), or null to unlink. A linked list no longer counts as `to_ckeckin`. Answers 200 with the list. Names are trimmed and must not be blank; at most 200 characters. Shopping lists are personal: only their owner sees or changes them (staff and admins included); another user's list or item is 404, and another user's list or cart named in a body is a 400 on that field.
         */
        patch: operations["updateShoppingList"];
        trace?: never;
    };
    "/api/v1/shopping-list-items/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Items of the user's shopping lists, optionally of one list
         * @description Oldest first. `shopping_list` filters by list id (a list that is not the user's gives an empty page).
         */
        get: operations["listShoppingListItems"];
        put?: never;
        /**
         * Add an item to one of the user’s shopping lists
         * @description Answers 201 with the item. `quantity` is an integer from 1 to 1,000,000; `scanned` is optional (default false). Items with the same name are not merged. Names are trimmed and must not be blank; at most 200 characters. Shopping lists are personal: only their owner sees or changes them (staff and admins included); another user's list or item is 404, and another user's list or cart named in a body is a 400 on that field.
         */
        post: operations["createShoppingListItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shopping-list-items/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One shopping list item
         * @description Shopping lists are personal: only their owner sees or changes them (staff and admins included); another user's list or item is 404, and another user's list or cart named in a body is a 400 on that field.
         */
        get: operations["getShoppingListItem"];
        put?: never;
        post?: never;
        /**
         * Remove an item from its list
         * @description Answers 204. Shopping lists are personal: only their owner sees or changes them (staff and admins included); another user's list or item is 404, and another user's list or cart named in a body is a 400 on that field.
         */
        delete: operations["deleteShoppingListItem"];
        options?: never;
        head?: never;
        /**
         * Change the name, quantity or scanned flag of an item
         * @description Answers 200 with the item. An item cannot be moved to another list (`shopping_list` is ignored here). Names are trimmed and must not be blank; at most 200 characters. Shopping lists are personal: only their owner sees or changes them (staff and admins included); another user's list or item is 404, and another user's list or cart named in a body is a 400 on that field.
         */
        patch: operations["updateShoppingListItem"];
        trace?: never;
    };
    "/api/v1/organizations/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organizations the user is a member of
         * @description Only the memberships of the authenticated user, staff and admins included (memberships come from the upstream profile at login). Ordered by name, then id. `favorites=True`: only favourites; `favorites=False`: only the others.
         */
        get: operations["listOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{organization_id}/favorite/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add an organization to the user's favourites
         * @description No body (an empty JSON body is accepted too); answers 200 with no body. Idempotent. An organization the user is not a member of, or an unknown one, is 404. Favourites are per user and survive a new login as long as upstream keeps the user's membership.
         */
        post: operations["favoriteOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{organization_id}/unfavorite/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove an organization from the user's favourites
         * @description No body (an empty JSON body is accepted too); answers 200 with no body. Idempotent. An organization the user is not a member of, or an unknown one, is 404. Favourites are per user and survive a new login as long as upstream keeps the user's membership.
         */
        post: operations["unfavoriteOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credit-check/{organization_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user's credit status in an organization, from the upstream system
         * @description Asked live from the upstream system with the caller's upstream token (header `Authorization-Upstream`, required: 400 `upstream_token_missing`; 401 `upstream_token_not_valid` when upstream refuses it). An organization the user is not a member of (locally) is 404 without asking upstream; 404 too when upstream does not know it. Upstream failures: 502, 503, 504.
         */
        get: operations["getCreditCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/stores/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the stores, ordered by name then id */
        get: operations["listStores"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/stores/{gln}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One store by GLN
         * @description A 404 means the GLN is not a store of the service (use it to check a GLN).
         */
        get: operations["getStore"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a store (staff and admins)
         * @description Changes only the fields sent: `active_period` (`HH:MM:SS` or `HH:MM`, hours may exceed 23), `name` (trimmed, not blank), `carts_for_random_control` (integer >= 0; 0 disables random controls). `gln` and `id` cannot be changed and are ignored. Customers get 403.
         */
        patch: operations["updateStore"];
        trace?: never;
    };
    "/api/v1/stores/{gln}/store-hours/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Opening hours of a store: seven entries, Monday first
         * @description Always seven entries `monday` … `sunday`. Times are `HH:MM:SS`, in the store's local time; null for both means closed (also for a weekday never set).
         */
        get: operations["getStoreHours"];
        put?: never;
        /**
         * Set opening hours of some weekdays (staff and admins)
         * @description Body: a non-empty array of `{weekday, opening_time, closing_time}`, each weekday at most once; only the weekdays given change, all of them or none. Times `HH:MM` or `HH:MM:SS`; both null (closed) or both set with opening before closing (no overnight hours). Answers 200 with no body. Errors (400): about the whole body under `non_field_errors` (not an array, empty, more than seven entries); about an entry under `"<index>.<field>"`, index from 0 (an entry that is not an object: under `"<index>"`), e.g. `{"2.closing_time": ["Closing time must be after opening time."]}`. Customers get 403.
         */
        post: operations["setStoreHours"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/options/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public configuration options
         * @description No token needed (one sent is ignored). Only options marked public are listed, for every caller, administrators included; ordered by name. `name` filters by exact name (an empty value does not filter).
         */
        get: operations["listOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/monthly-scores/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's score per week of a month
         * @description One entry per Monday-started UTC week that overlaps the month (4 to 6), `week` numbered from 0; week 0 may begin in the month before and the last may end in the month after. `score`: the total quantity of items in the caller's carts whose checkout record was created in that week and inside the month (days outside the month do not count); null for a week whose Monday 00:00 UTC hasn't come yet, 0 for a started week with nothing. `month` 1-12 and `year` 1970-9999 are required; otherwise 400 on that field. A ranking screen makes two calls for the same month: `monthly-scores/` draws the caller's week-by-week bars, `monthly-scores/ranking/` the leaderboard; the caller's `me.score` there is the sum of the weekly scores.
         */
        get: operations["getMonthlyScores"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/monthly-scores/ranking/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The month’s ranking of the people in your organizations
         * @description Ranks the caller and every member of the caller's organizations (or, with `organization`, of that one organization; one the caller is not a member of is 404) by the month's total checked-out quantity, counted as in `monthly-scores/` over all of each user's carts. Ordered by score, highest first, then username; equal scores share a rank (1, 2, 2, 4); users with nothing checked out are included with 0. Not paged: `results` holds the first 100, `count` says how many are ranked, and `me` is always the caller's own rank and score. The same 400s as `monthly-scores/`. Staff and admins may pass `all_organizations=True` to rank the members of every organization (the staff console's dashboard); a customer who does gets 403. A ranking screen makes two calls for the same month: `monthly-scores/` draws the caller's week-by-week bars, `monthly-scores/ranking/` the leaderboard; the caller's `me.score` there is the sum of the weekly scores.
         */
        get: operations["getMonthlyScoreRanking"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{article_number}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A product, from the upstream system
         * @description Fetched live from the upstream system on every call, with the caller's upstream token (header `Authorization-Upstream: Bearer <upstream_token>`, required: 400 `upstream_token_missing` without it; 401 `upstream_token_not_valid` when upstream refuses it). Only the fields listed here are returned; decimal amounts are strings passed through unchanged. An unknown article number, one longer than 64 characters, or `.` or `..` (a dot segment upstream; not sent) is 404. Upstream failures: 502 `upstream_error` (unusable answer, including one that does not fit this shape), 503 `upstream_unavailable`, 504 `upstream_timeout`.
         */
        get: operations["getProduct"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{article_number}/price/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's price of a product (prices are customer-specific)
         * @description Fetched live from the upstream system on every call, with the caller's upstream token (header `Authorization-Upstream: Bearer <upstream_token>`, required: 400 `upstream_token_missing` without it; 401 `upstream_token_not_valid` when upstream refuses it). Only the fields listed here are returned; decimal amounts are strings passed through unchanged. An unknown article number, one longer than 64 characters, or `.` or `..` (a dot segment upstream; not sent) is 404. Upstream failures: 502 `upstream_error` (unusable answer, including one that does not fit this shape), 503 `upstream_unavailable`, 504 `upstream_timeout`.
         */
        get: operations["getProductPrice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{article_number}/stock/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stock of a product at a location
         * @description `location_id` is required (400 on `location_id` when missing or blank; surrounding spaces are dropped). A location that does not stock the product answers 200 with `stocked: false`. Fetched live from the upstream system on every call, with the caller's upstream token (header `Authorization-Upstream: Bearer <upstream_token>`, required: 400 `upstream_token_missing` without it; 401 `upstream_token_not_valid` when upstream refuses it). Only the fields listed here are returned; decimal amounts are strings passed through unchanged. An unknown article number, one longer than 64 characters, or `.` or `..` (a dot segment upstream; not sent) is 404. Upstream failures: 502 `upstream_error` (unusable answer, including one that does not fit this shape), 503 `upstream_unavailable`, 504 `upstream_timeout`.
         */
        get: operations["getProductStock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/categories/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The category trees, from the upstream system
         * @description Fetched live from the upstream system on every call: with the caller's `Authorization-Upstream` token when sent (401 `upstream_token_not_valid` when upstream refuses it), otherwise with the service account. Nodes carry `id`, `name`, `slug` and, where upstream gives them, `sort` and `children`; leaves have no `children`. Upstream failures: 502, 503, 504 as for products.
         */
        get: operations["listCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller: identity and roles
         * @description The local user of the access token, as stored at the last login, with its roles (granted with the admin command). Staff and admin screens use it to decide what to show; the roles are still checked on every call.
         */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me/change-password/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the caller's password (set upstream)
         * @description Needs `Authorization-Upstream` (400 `upstream_token_missing` without it; 401 `upstream_token_not_valid` when upstream refuses it, or when it belongs to another user than the access token). A wrong current password is 400 on `password`; `new_password` takes 8 to 128 characters and is not a common password (400 on `new_password`, `This password is too common.`: nothing is sent upstream). Rate-limited with the login, per client address and per account (429 `throttled`): a stolen session cannot guess the password here. Success: 200 `{"detail": "Password changed."}`, and every token issued before (the caller's own too) is refused from then on (401 `token_not_valid`; refresh 400): log in again with the new password. Upstream failures: 502, 503, 504.
         */
        patch: operations["changePassword"];
        trace?: never;
    };
    "/api/v1/users/me/logout-all/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End every session of the caller's (log out everywhere)
         * @description With the current password (checked upstream; 400 on `password` when wrong): every token issued before, the caller's own too, is refused from then on (401 `token_not_valid`; refresh 400), unused WebSocket connection codes die, and open notification WebSockets of the caller close with 4401 on every instance. For a user who thinks a token was stolen and keeps the password. Rate-limited with the login, per client address and per account (429 `throttled`). Upstream failures: 502, 503, 504.
         */
        post: operations["logoutAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me/shipments/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's shipments, by the telephone number of their profile
         * @description With `Authorization-Upstream`, the telephone number comes from the upstream profile of that token's user (401 `upstream_token_not_valid` when upstream refuses it, or when the token belongs to another user than the access token); without it, from the profile stored at the last login. Shipments are then looked up upstream, as for `categories/`: with the caller's `Authorization-Upstream` token when sent, otherwise with the service account. No telephone number: 200 `[]`. Upstream failures: 502, 503, 504.
         */
        get: operations["listShipments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/request-restore-code/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Password restore (variant A): e-mail a 6-digit code to the user
         * @description Always 202, no body. Answers the same status, in the same time, whether or not the account exists: the upstream look-up, the code and the e-mail happen after the answer (a failure there is logged, never shown; nothing is sent for an unknown account). A new request replaces the account's earlier code of this variant. Codes are random, stored only as hashes, expire after `RESTORE_CODE_TTL_SECONDS` (default 3600) and die after 5 attempts; an account gets at most `RESTORE_CODES_PER_DAY` codes of a variant in 24 hours (beyond, the answer is the same and nothing is sent). In production without `SMTP_URL`: 503 `restore_unavailable`. Rate-limited (`AUTH_RATE_LIMIT_PER_MINUTE` per minute, fixed one-minute windows): 429 `{"detail", "code": "throttled"}` with `Retry-After` (seconds). Every attempt counts, successful or not. The restore endpoints and the restore page share one set of counters (per client address, per username, per e-mail address), separate from the login counters. Counted per client address and per username.
         */
        post: operations["requestRestoreCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/restore-password/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Password restore (variant A): set a new password with the e-mailed code
         * @description 202, no body: the new password is set upstream, the code is spent, and so is every other unused code of the user; every token of the user issued before is refused from then on (401 `token_not_valid`; refresh 400). A wrong, expired or used code (or another user's) is 400 `{"code": ["Invalid or expired code."]}`; `password` takes 8 to 128 characters and is not a common password (400 on `password`, `This password is too common.`: the code is not tried, nothing is sent upstream). A code dies after 5 attempts, counted across all client addresses; an account has `RESTORE_ATTEMPTS_PER_DAY` attempts in 24 hours, both variants and the restore page together (beyond, its codes answer as wrong ones). Rate-limited (`AUTH_RATE_LIMIT_PER_MINUTE` per minute, fixed one-minute windows): 429 `{"detail", "code": "throttled"}` with `Retry-After` (seconds). Every attempt counts, successful or not. The restore endpoints and the restore page share one set of counters (per client address, per username, per e-mail address), separate from the login counters. Counted per client address and per username.
         */
        post: operations["restorePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/request_restore_code/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Password restore (variant B): e-mail a link to every account with the address
         * @description Always 201, no body. The link is `{PUBLIC_URL}/users/restore-password/<code>/`: an HTML page served by this service (or a front end calling `restore_password/`). Without `PUBLIC_URL` (development only: production requires it) the base is `http://HOST:PORT`; no request header (`Host`, `X-Forwarded-Host`) ever sets it. Answers the same status, in the same time, whether or not the account exists: the upstream look-up, the code and the e-mail happen after the answer (a failure there is logged, never shown; nothing is sent for an unknown account). A new request replaces the account's earlier code of this variant. Codes are random, stored only as hashes, expire after `RESTORE_CODE_TTL_SECONDS` (default 3600) and die after 5 attempts; an account gets at most `RESTORE_CODES_PER_DAY` codes of a variant in 24 hours (beyond, the answer is the same and nothing is sent). In production without `SMTP_URL`: 503 `restore_unavailable`. Rate-limited (`AUTH_RATE_LIMIT_PER_MINUTE` per minute, fixed one-minute windows): 429 `{"detail", "code": "throttled"}` with `Retry-After` (seconds). Every attempt counts, successful or not. The restore endpoints and the restore page share one set of counters (per client address, per username, per e-mail address), separate from the login counters. Counted per client address and per e-mail address.
         */
        post: operations["requestRestoreLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/restore_password/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Password restore (variant B): set a new password with the code of the link
         * @description 201, no body: the new password is set upstream and the code is spent (with every other unused code of the user); every token of the user issued before is refused from then on (401 `token_not_valid`; refresh 400). `password` and `repeat_password` must match (400 on `repeat_password`; the code is NOT spent then); `password` takes 8 to 128 characters and is not a common password (400 on `password`, `This password is too common.`; the code is not spent, nothing is sent upstream). A wrong, expired or used code is 400 on `restore_password_code`. A code dies after 5 attempts, counted across all client addresses; an account has `RESTORE_ATTEMPTS_PER_DAY` attempts in 24 hours, both variants and the restore page together (beyond, its codes answer as wrong ones). Rate-limited (`AUTH_RATE_LIMIT_PER_MINUTE` per minute, fixed one-minute windows): 429 `{"detail", "code": "throttled"}` with `Retry-After` (seconds). Every attempt counts, successful or not. The restore endpoints and the restore page share one set of counters (per client address, per username, per e-mail address), separate from the login counters. Counted per client address.
         */
        post: operations["restorePasswordWithLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/websocket-notifications/groups/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A code to open the notification WebSocket
         * @description No body. Answers 201 `{code}`: a random code bound to the caller, valid for `WS_CODE_TTL_SECONDS` (default 300 s) and good for ONE connection (it is spent when the connection is accepted; ask for a new code to reconnect). Connect with `GET /ws/notifications/?code=<code>` (WebSocket upgrade, outside /api/v1). An unknown, expired or spent code is refused before the upgrade with HTTP 401 `{"detail", "code": "token_not_valid"}` (no code: 401 `not_authenticated`); a request without an upgrade is 426. Messages are JSON text frames `{"type", "data", "created"}`: `cart.checked_out` `{cart, checkout}` (the Checkout record), `cart.checkout_failed` `{cart, status, code}` (the HTTP status and error code the checkout answered after an upstream failure: 401, 502, 503 or 504; `code` null when upstream sent none), `control.created` and `control.verified` `{control}` (as `GET controls/{id}/` answers it). `cart.checked_out` reaches the cart's owner and every staff user and admin; `control.created` reaches the controlled user and every staff user and admin; `cart.checkout_failed` and `control.verified` reach only the user concerned. Each message reaches every open connection of its recipients, on whichever instance it is. Delivery is best effort: there is no replay of messages sent while a client was not connected. The server pings every 30 s and drops a connection that did not answer the previous ping (standard WebSocket clients answer pings on their own). A user holds at most `WS_MAX_PER_USER` (default 10) connections on one instance: a newer one closes the oldest with code 4429 (too many connections). An instance holds at most `WS_MAX_CONNECTIONS` (default 2000): past it the upgrade is refused with HTTP 503 `{"detail", "code": "too_many_connections"}` and `Retry-After` (the code is not spent), or, for connections accepted together, the socket is closed with 1013 (try again later). On shutdown connections are closed with code 1001 (going away): reconnect with a new code.
         */
        post: operations["createNotificationCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-events/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The trail of staff actions (administrators)
         * @description Every control created (by an admin or a random draw), verified or rejected, every change of a store’s settings or hours, and every role or store changed by the admin command: who (`actor`, or `operator` for the admin command), when, what, and the changed values before and after. Newest first. Filters: `store` (GLN), `actor` (user id), `user` (the customer concerned), `kind`, `created_after`, `created_before`. `actor` and `customer` (the `user` concerned) carry the names, for screens. The trail is append-only; retention removes events older than its period.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** AuditEvent */
        AuditEvent: {
            id: number;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
            kind: "control.created" | "control.verified" | "control.rejected" | "store.created" | "store.updated" | "store.hours_updated" | "role.granted" | "role.revoked" | "checkout.confirmed";
            /** @description `api`: a person with a token (`actor`); `random-draw`: a checkout drew a control; `admin-command`: the admin command, run by `operator` */
            via: "api" | "random-draw" | "admin-command";
            /** @description who did it */
            actor: {
                id: number;
                username: string;
                first_name?: string;
                last_name?: string;
            } | null;
            /** @description the operating-system user of the admin command */
            operator: string | null;
            /** @description GLN of the store concerned */
            store: string | null;
            /** @description id of the customer concerned */
            user: number | null;
            /** @description the customer concerned (`user`) by name, or null */
            customer?: {
                id: number;
                username: string;
                first_name: string;
                last_name: string;
            } | null;
            /** @description id of the control (or, for `checkout.confirmed`, the cart) concerned */
            object: number | null;
            /** @description the changed fields as they were (before) or became (after) */
            before: {
                [key: string]: unknown;
            } | null;
            /** @description the changed fields as they were (before) or became (after) */
            after: {
                [key: string]: unknown;
            } | null;
        };
        /** AuditEventPage */
        AuditEventPage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["AuditEvent"][];
        };
        /** Cart */
        Cart: {
            id: number;
            checkout: components["schemas"]["Checkout"] | null;
            /** @description ids of the controls holding the cart */
            controls: number[];
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            last_activity: string;
            customer_order_number: string;
            order_mark: string;
            reference: string | null;
            items: components["schemas"]["CartItem"][];
            items_count: number;
            total_quantity: number;
            organization: components["schemas"]["Organization"];
            store: {
                /**
                 * Format: date-time
                 * @example 2026-03-01T09:15:02.123456Z
                 */
                created: string;
                gln: string;
                id: number;
            } | null;
            user: {
                email: string;
                first_name: string;
                id: number;
                last_name: string;
                username: string;
            };
            checkout_availability_error: boolean;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            checkout_availability_error_at: string | null;
            has_unlimited_credit: boolean;
        };
        /** CartCreate */
        CartCreate: {
            /** @description GLN; omitted or null: the customer warehouse */
            store?: string | null;
            /** @description organization_id */
            organization: string;
            customer_order_number: string;
            order_mark: string;
            /** @description Omitted: the user's profile reference */
            reference?: string | null;
        };
        /** CartCreated */
        CartCreated: {
            id: number;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
            customer_order_number: string;
            order_mark: string;
            /** @description organization_id */
            organization: string;
            reference: string | null;
            /** @description GLN, or null for the customer warehouse */
            store: string | null;
        };
        /** CartItem */
        CartItem: {
            id: number;
            cart: number;
            part_number: string;
            quantity: number;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
        };
        /** CartItemCreate */
        CartItemCreate: {
            cart: number;
            part_number: string;
            quantity: number;
        };
        /** CartItemPage */
        CartItemPage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["CartItem"][];
        };
        /** CartItemUpdate */
        CartItemUpdate: {
            quantity: number;
        };
        /** CartPage */
        CartPage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["Cart"][];
        };
        /** CartStats */
        CartStats: {
            total_quantity: number;
            total_items: number;
        };
        /** CartTimeSeries */
        CartTimeSeries: {
            total: number;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            interval: string;
        }[];
        /** CatalogueCategory */
        CatalogueCategory: {
            id: string;
            name: string;
            /** @description Path-like, levels separated by "/" */
            slug: string;
            sort?: number;
            children?: components["schemas"]["CatalogueCategory"][];
        };
        /** CategoryTrees */
        CategoryTrees: components["schemas"]["CatalogueCategory"][];
        /** Checkout */
        Checkout: {
            id: number;
            cart: number;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
            order_id: string;
            order_number: string;
            /** @description Upstream was saturated and queued the order */
            timed_out: boolean;
        };
        /** CheckoutCartRequest */
        CheckoutCartRequest: unknown;
        /** Control */
        Control: {
            id: number;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            verified_at: string | null;
            is_random: boolean;
            status: "pending" | "verified";
            /** @description id of the user the control refers to */
            user: number;
            /** @description store id */
            store: number;
            /** @description ids of the controlled carts, ascending */
            carts: number[];
            /** @description id of the admin who created it; null for random controls */
            controller: number | null;
        };
        /** ControlCounts */
        ControlCounts: {
            /** @description controls created in the period (whatever became of them) */
            created: number;
            /** @description of those, verified */
            verified: number;
            /** @description of those, rejected (no longer listed by GET controls/) */
            rejected: number;
            /** @description of those, still pending */
            pending: number;
        };
        /** ControlCreate */
        ControlCreate: {
            /** @description id of the user whose carts are controlled */
            user: number;
            /** @description store id (a user may have carts in several) */
            store: number;
            status: "pending" | "verified";
        };
        /** ControlPage */
        ControlPage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["Control"][];
        };
        /** ControlStats */
        ControlStats: {
            random: components["schemas"]["ControlCounts"];
            chosen: components["schemas"]["ControlCounts"];
            /** @description With `by_store=True`: each store with at least one control created in the period, by store id (a store left out had none); otherwise null */
            stores: components["schemas"]["ControlStoreStats"][] | null;
        };
        /** ControlStoreStats */
        ControlStoreStats: {
            /** @description store id */
            store: number;
            random: components["schemas"]["ControlCounts"];
            chosen: components["schemas"]["ControlCounts"];
        };
        /** ControlVerification */
        ControlVerification: {
            /** @description Only `verified` is a valid target */
            status: "pending" | "verified";
        };
        /** CreditCheck */
        CreditCheck: {
            /** @description The user's credit status in that organization */
            credit: boolean;
        };
        /** CurrentUser */
        CurrentUser: {
            id: number;
            username: string;
            email: string;
            first_name: string;
            last_name: string;
            /** @description May update stores and hours; sees all carts */
            is_staff: boolean;
            /** @description May do all staff may, plus controls */
            is_admin: boolean;
        };
        /** ErrorDetail */
        ErrorDetail: {
            detail: string;
            /** @example not_found */
            code: string;
        };
        /**
         * FieldErrors
         * @example {
         *       "quantity": [
         *         "Ensure this value is greater than or equal to 1."
         *       ]
         *     }
         */
        FieldErrors: {
            [key: string]: string[];
        };
        /** LoginRequest */
        LoginRequest: {
            username: string;
            password: string;
        };
        /** LoginResponse */
        LoginResponse: {
            /** @description Access token: send as `Authorization: Bearer <token>` */
            token: string;
            /** @description Upstream token: send as `Authorization-Upstream` */
            upstream_token: string;
            upstream_refresh_token: string;
        };
        /** LogoutAll */
        LogoutAll: {
            /** @description The current password */
            password: string;
        };
        /** Message */
        Message: {
            detail: string;
        };
        /** MonthlyScoreRanking */
        MonthlyScoreRanking: {
            month: number;
            year: number;
            /** @description Users ranked (results holds at most 100 of them) */
            count: number;
            results: {
                /** @description Equal scores share a rank: 1, 2, 2, 4 */
                rank: number;
                user: {
                    id: number;
                    first_name: string;
                    last_name: string;
                    username: string;
                };
                /** @description Items checked out in the month: the sum of the weekly scores */
                score: number;
            }[];
            /** @description The caller's own place, also when outside the first 100 */
            me: {
                rank: number;
                /** @description Items checked out in the month: the sum of the weekly scores */
                score: number;
            };
        };
        /** MonthlyScores */
        MonthlyScores: {
            /** @description From 0: the week holding the 1st of the month */
            week: number;
            /** @description null: the week has not started yet */
            score: number | null;
        }[];
        /** NotificationCode */
        NotificationCode: {
            code: string;
        };
        /** Option */
        Option: {
            id: number;
            name: string;
            public_name: string;
            type: number;
            value: string;
            /** @description file reference as stored, or null */
            file: string | null;
            is_list: boolean;
            /** @description always true here: only public options are listed */
            is_public: boolean;
        };
        /** OptionPage */
        OptionPage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["Option"][];
        };
        /** Organization */
        Organization: {
            id: number;
            code: string;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
            name: string;
            organization_id: string;
            parent_code: string;
        };
        /** OrganizationPage */
        OrganizationPage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["Organization"][];
        };
        /** PasswordChange */
        PasswordChange: {
            /** @description The current password */
            password: string;
            /** @description 8 to 128 characters, not a common password (400 `This password is too common.`) */
            new_password: string;
        };
        /** PasswordRestoreWithCode */
        PasswordRestoreWithCode: {
            username: string;
            /** @description 8 to 128 characters, not a common password (400 `This password is too common.`) */
            password: string;
            /** @description The 6-digit code e-mailed */
            code: string;
        };
        /** PasswordRestoreWithLink */
        PasswordRestoreWithLink: {
            /** @description 8 to 128 characters, not a common password (400 `This password is too common.`) */
            password: string;
            repeat_password: string;
            /** @description The code from the e-mailed link `/users/restore-password/<code>/` */
            restore_password_code: string;
        };
        /** Product */
        Product: {
            id: string;
            product_id: string;
            article_number: string;
            name: string;
            description: string;
            ean: string;
            supply_group: string;
            discontinued: boolean;
            tradepoint: string;
            product_slug: string;
            variant_slug: string;
            assortment_ids: string[];
            campaign_ids: unknown[];
            classifications: unknown[];
            assets: unknown[];
            filter_tags: string[];
            images: {
                asset_url: string;
                asset_type: string;
            }[];
            attributes: {
                attribute_value: string;
                attribute_name: string;
                attribute_label: string;
                sort: number;
            }[];
        };
        /** ProductPrice */
        ProductPrice: {
            article_number: string;
            /** @description Decimal amount as a string, e.g. "12.90" */
            net_price: string;
            price_type: string;
            /** @description Decimal amount as a string, e.g. "12.90" */
            sales_price: string;
            /** @description Decimal amount as a string, e.g. "12.90" */
            customer_discount_price: string;
            /** @description Decimal amount as a string, e.g. "12.90" */
            pre_campaign_price: string;
            sales_price_unit: string;
            ask_for_price: boolean;
            discounts: {
                name: string;
                type: string;
                /** @description Decimal percentage as a string, e.g. "12.50" */
                percentage: string;
                /** @description Decimal amount as a string, e.g. "12.90" */
                amount: string;
            }[];
            /** @description Decimal amount as a string, e.g. "12.90" */
            discount_amount: string;
            /** @description Decimal percentage as a string, e.g. "12.50" */
            discount_percentage: string;
            /** @description Decimal amount as a string, e.g. "12.90" */
            alloying_price: string;
            alloying_unit: string;
            /** @description Decimal amount as a string, e.g. "12.90" */
            alloying_amount: string;
        };
        /** ProductStock */
        ProductStock: {
            location_id: string;
            availability_date: string | null;
            availability_date_iso: string | null;
            quantity: number;
            sub_availabilities: unknown[];
            order_multiple: number;
            stocked: boolean;
            available_from_days: number | null;
            available_to_days: number | null;
            /** @description Colour-coded availability level */
            availability: string;
        };
        /** RefreshRequest */
        RefreshRequest: {
            token: string;
        };
        /** RefreshResponse */
        RefreshResponse: {
            token: string;
        };
        /** RestoreCodeRequest */
        RestoreCodeRequest: {
            username: string;
        };
        /** RestoreLinkRequest */
        RestoreLinkRequest: {
            email: string;
        };
        /** Shipments */
        Shipments: {
            RefNo: string;
            YourRefNo: string;
            SId: string;
            SService: string;
            SStatusTxt: string;
            CSTrURL: string | null;
            /** @description Tracking link */
            PortalTrURL: string;
            SKey: string;
            /** @description `YYYY-MM-DD HH:MM` */
            SStatusDTime: string;
        }[];
        /** ShoppingList */
        ShoppingList: {
            id: number;
            name: string;
            /** @description oldest first */
            items: components["schemas"]["ShoppingListItem"][];
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
        };
        /** ShoppingListCreate */
        ShoppingListCreate: {
            /** @description Non-empty after trimming, at most 200 characters; stored trimmed */
            name: string;
        };
        /** ShoppingListItem */
        ShoppingListItem: {
            id: number;
            name: string;
            quantity: number;
            scanned: boolean;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
        };
        /** ShoppingListItemCreate */
        ShoppingListItemCreate: {
            /** @description id of one of the user's own lists */
            shopping_list: number;
            /** @description Non-empty after trimming, at most 200 characters; stored trimmed */
            name: string;
            quantity: number;
            /** @default false */
            scanned: boolean;
        };
        /** ShoppingListItemPage */
        ShoppingListItemPage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["ShoppingListItem"][];
        };
        /** ShoppingListItemUpdate */
        ShoppingListItemUpdate: {
            /** @description Non-empty after trimming, at most 200 characters; stored trimmed */
            name?: string;
            quantity?: number;
            scanned?: boolean;
        };
        /** ShoppingListPage */
        ShoppingListPage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["ShoppingList"][];
        };
        /** ShoppingListUpdate */
        ShoppingListUpdate: {
            /** @description Non-empty after trimming, at most 200 characters; stored trimmed */
            name?: string;
            /** @description id of one of the user's own carts; null unlinks */
            cart?: number | null;
        };
        /** Store */
        Store: {
            id: number;
            gln: string;
            name: string;
            /**
             * @description Duration `HH:MM:SS`; hours may exceed 23
             * @example 02:00:00
             */
            active_period: string;
            /** @description N: a checkout draws a random control with probability 1/N; 0 disables */
            carts_for_random_control: number;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
        };
        /** StoreHours */
        StoreHours: {
            /**
             * @description `monday` … `sunday`
             * @enum {unknown}
             */
            weekday: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
            /** @example 07:00:00 */
            opening_time: string | null;
            /** @example 18:00:00 */
            closing_time: string | null;
        }[];
        /** StoreHoursUpdate */
        StoreHoursUpdate: {
            /**
             * @description `monday` … `sunday`
             * @enum {unknown}
             */
            weekday: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
            /**
             * @description `HH:MM` or `HH:MM:SS`; null: closed
             * @example 07:00
             */
            opening_time: string | null;
            /**
             * @description `HH:MM` or `HH:MM:SS`; null: closed
             * @example 07:00
             */
            closing_time: string | null;
        }[];
        /** StorePage */
        StorePage: {
            count: number;
            /** Format: uri */
            next: string | null;
            /** Format: uri */
            previous: string | null;
            results: components["schemas"]["Store"][];
        };
        /** StoreUpdate */
        StoreUpdate: {
            /** @description `HH:MM:SS` or `HH:MM`; hours may exceed 23 */
            active_period?: string;
            name?: string;
            carts_for_random_control?: number;
        };
        /** UpstreamAnswer */
        UpstreamAnswer: {
            [key: string]: unknown;
        };
        /** VerifiedControl */
        VerifiedControl: {
            id: number;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            created: string;
            /**
             * Format: date-time
             * @example 2026-03-01T09:15:02.123456Z
             */
            verified_at: string | null;
            is_random: boolean;
            status: "pending" | "verified";
            /** @description id of the user the control refers to */
            user: number;
            /** @description the lowest cart id of the control */
            cart: number | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    showRestorePasswordPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An HTML page (JSON for a path the router refuses). Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    submitRestorePasswordPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An HTML page (JSON for a path the router refuses). Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description An HTML page (JSON for a path the router refuses). `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    refreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshResponse"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listCarts: {
        parameters: {
            query?: {
                /** @description True, False, true, false, 1 or 0 */
                active?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_after?: string;
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_before?: string;
                /** @description True, False, true, false, 1 or 0 */
                checkout?: "True" | "False" | "true" | "false" | "1" | "0";
                gln?: string;
                /** @description True, False, true, false, 1 or 0 */
                exclude_warehouse?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description True, False, true, false, 1 or 0 */
                checkout_availability_error?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description True, False, true, false, 1 or 0 */
                each_user?: "True" | "False" | "true" | "false" | "1" | "0";
                user?: string;
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
                /** @description One of created, last_activity, customer_order_number, items_count, total_quantity; a leading - sorts descending. Default -created. */
                ordering?: "created" | "-created" | "last_activity" | "-last_activity" | "customer_order_number" | "-customer_order_number" | "items_count" | "-items_count" | "total_quantity" | "-total_quantity";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CartPage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    createCart: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe (as Stripe defines it): a repeat by the same user with the same key and the same request within 24 hours answers the first answer (status and body, with `Idempotent-Replayed: true`) and changes nothing, also while the first is still running. The same key with another request (operation or body) is 422 `idempotency_key_reused`; more than 255 characters is a 400 on the header. Only successful answers are kept: after an error the key is unused. A UUID per request does. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CartCreate"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CartCreated"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `idempotency_key_reused`: the `Idempotency-Key` was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getCartStats: {
        parameters: {
            query?: {
                /** @description True, False, true, false, 1 or 0 */
                active?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_after?: string;
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_before?: string;
                /** @description True, False, true, false, 1 or 0 */
                checkout?: "True" | "False" | "true" | "false" | "1" | "0";
                gln?: string;
                /** @description True, False, true, false, 1 or 0 */
                exclude_warehouse?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description True, False, true, false, 1 or 0 */
                checkout_availability_error?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description True, False, true, false, 1 or 0 */
                each_user?: "True" | "False" | "true" | "false" | "1" | "0";
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CartStats"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getCartTimeSeries: {
        parameters: {
            query?: {
                /** @description True, False, true, false, 1 or 0 */
                active?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_after?: string;
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_before?: string;
                /** @description True, False, true, false, 1 or 0 */
                checkout?: "True" | "False" | "true" | "false" | "1" | "0";
                gln?: string;
                /** @description True, False, true, false, 1 or 0 */
                exclude_warehouse?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description True, False, true, false, 1 or 0 */
                checkout_availability_error?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description True, False, true, false, 1 or 0 */
                each_user?: "True" | "False" | "true" | "false" | "1" | "0";
                user?: string;
                /** @description Bucket: M month, W week (from Monday), D day (default), H hour; UTC */
                interval?: "M" | "W" | "D" | "H";
                /** @description carts (default): number of carts; items: item lines of those carts */
                aggregate?: "carts" | "items";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CartTimeSeries"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getCart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cart"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    checkoutCart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CheckoutCartRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Checkout"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`, `upstream_token_not_valid` (upstream refused the upstream token). */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `checkout_in_progress`: a checkout of the cart is in flight, or its outcome is unknown (retry). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`, or the upstream system's own 503 JSON, passed through. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"] | components["schemas"]["UpstreamAnswer"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listItems: {
        parameters: {
            query?: {
                cart?: string;
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CartItemPage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    createItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe (as Stripe defines it): a repeat by the same user with the same key and the same request within 24 hours answers the first answer (status and body, with `Idempotent-Replayed: true`) and changes nothing, also while the first is still running. The same key with another request (operation or body) is 422 `idempotency_key_reused`; more than 255 characters is a 400 on the header. Only successful answers are kept: after an error the key is unused. A UUID per request does. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CartItemCreate"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CartItem"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `checkout_in_progress`: a checkout of the cart is in flight, or its outcome is unknown (retry). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `idempotency_key_reused`: the `Idempotency-Key` was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    deleteItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `checkout_in_progress`: a checkout of the cart is in flight, or its outcome is unknown (retry). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    updateItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CartItemUpdate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CartItem"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `checkout_in_progress`: a checkout of the cart is in flight, or its outcome is unknown (retry). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listControls: {
        parameters: {
            query?: {
                status?: "pending" | "verified";
                store?: string;
                user?: string;
                /** @description True, False, true, false, 1 or 0 */
                is_random?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_after?: string;
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_before?: string;
                /** @description One of created; a leading - sorts descending. Default -created. */
                ordering?: "created" | "-created";
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlPage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    createControl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ControlCreate"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Control"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `permission_denied`: the route is for admins. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getControl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Control"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    rejectControl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `permission_denied`: the route is for admins. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    verifyControl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ControlVerification"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifiedControl"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `permission_denied`: the route is for admins. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getControlStats: {
        parameters: {
            query?: {
                store?: string;
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_after?: string;
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_before?: string;
                /** @description True, False, true, false, 1 or 0 */
                by_store?: "True" | "False" | "true" | "false" | "1" | "0";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlStats"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `permission_denied`: the route is for staff and admins. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listShoppingLists: {
        parameters: {
            query?: {
                /** @description True, False, true, false, 1 or 0 */
                to_ckeckin?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description One of created, name; a leading - sorts descending. Default -created. */
                ordering?: "created" | "-created" | "name" | "-name";
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShoppingListPage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    createShoppingList: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe (as Stripe defines it): a repeat by the same user with the same key and the same request within 24 hours answers the first answer (status and body, with `Idempotent-Replayed: true`) and changes nothing, also while the first is still running. The same key with another request (operation or body) is 422 `idempotency_key_reused`; more than 255 characters is a 400 on the header. Only successful answers are kept: after an error the key is unused. A UUID per request does. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShoppingListCreate"];
            };
        };
        responses: {
            /** @description No body. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `idempotency_key_reused`: the `Idempotency-Key` was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getShoppingList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShoppingList"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    deleteShoppingList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    updateShoppingList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShoppingListUpdate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShoppingList"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listShoppingListItems: {
        parameters: {
            query?: {
                shopping_list?: string;
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShoppingListItemPage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    createShoppingListItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe (as Stripe defines it): a repeat by the same user with the same key and the same request within 24 hours answers the first answer (status and body, with `Idempotent-Replayed: true`) and changes nothing, also while the first is still running. The same key with another request (operation or body) is 422 `idempotency_key_reused`; more than 255 characters is a 400 on the header. Only successful answers are kept: after an error the key is unused. A UUID per request does. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShoppingListItemCreate"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShoppingListItem"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `idempotency_key_reused`: the `Idempotency-Key` was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getShoppingListItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShoppingListItem"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    deleteShoppingListItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    updateShoppingListItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShoppingListItemUpdate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShoppingListItem"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listOrganizations: {
        parameters: {
            query?: {
                /** @description True, False, true, false, 1 or 0 */
                favorites?: "True" | "False" | "true" | "false" | "1" | "0";
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationPage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    favoriteOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No body. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    unfavoriteOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No body. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getCreditCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditCheck"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest; or `{"detail", "code": "upstream_token_missing"}` without `Authorization-Upstream`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`, `upstream_token_not_valid` (upstream refused the upstream token). */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listStores: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorePage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getStore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                gln: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Store"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    updateStore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                gln: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StoreUpdate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Store"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `permission_denied`: the route is for staff and admins. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getStoreHours: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                gln: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoreHours"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    setStoreHours: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                gln: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StoreHoursUpdate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `permission_denied`: the route is for staff and admins. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listOptions: {
        parameters: {
            query?: {
                /** @description exact name; empty means no filter */
                name?: string;
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OptionPage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getMonthlyScores: {
        parameters: {
            query: {
                /** @description 1-12 */
                month: string;
                /** @description 1970-9999 */
                year: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonthlyScores"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getMonthlyScoreRanking: {
        parameters: {
            query: {
                /** @description 1-12 */
                month: string;
                /** @description 1970-9999 */
                year: string;
                /** @description organization_id of one of your organizations; omitted: all of them */
                organization?: string;
                /** @description Staff and admins: True ranks the members of every organization (`organization` is then ignored); a customer gets 403 */
                all_organizations?: "True" | "False" | "true" | "false" | "1" | "0";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonthlyScoreRanking"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                article_number: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest; or `{"detail", "code": "upstream_token_missing"}` without `Authorization-Upstream`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`, `upstream_token_not_valid` (upstream refused the upstream token). */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getProductPrice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                article_number: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductPrice"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest; or `{"detail", "code": "upstream_token_missing"}` without `Authorization-Upstream`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`, `upstream_token_not_valid` (upstream refused the upstream token). */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getProductStock: {
        parameters: {
            query: {
                /** @description The location of the store (its GLN) or a warehouse */
                location_id: string;
            };
            header?: never;
            path: {
                article_number: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductStock"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest; or `{"detail", "code": "upstream_token_missing"}` without `Authorization-Upstream`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`, `upstream_token_not_valid` (upstream refused the upstream token). */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (or not visible to the caller): `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryTrees"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`, `upstream_token_not_valid` (upstream refused the upstream token). */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrentUser"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest; or `{"detail", "code": "upstream_token_missing"}` without `Authorization-Upstream`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`, `upstream_token_not_valid` (upstream refused the upstream token). */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    logoutAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LogoutAll"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listShipments: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shipments"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`, `upstream_token_not_valid` (upstream refused the upstream token). */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    requestRestoreCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RestoreCodeRequest"];
            };
        };
        responses: {
            /** @description No body. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `restore_unavailable` (production without `SMTP_URL`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    restorePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordRestoreWithCode"];
            };
        };
        responses: {
            /** @description No body. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    requestRestoreLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RestoreLinkRequest"];
            };
        };
        responses: {
            /** @description No body. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `restore_unavailable` (production without `SMTP_URL`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    restorePasswordWithLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordRestoreWithLink"];
            };
        };
        responses: {
            /** @description No body. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `throttled`: too many attempts this minute. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is counted. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_error`: the upstream system answered unusably. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`), or `upstream_unavailable`. */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `upstream_timeout`: the upstream system did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    createNotificationCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationCode"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `payload_too_large`: over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `unsupported_media_type`: the body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description GLN */
                store?: string;
                actor?: string;
                user?: string;
                kind?: "control.created" | "control.verified" | "control.rejected" | "store.created" | "store.updated" | "store.hours_updated" | "role.granted" | "role.revoked" | "checkout.confirmed";
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_after?: string;
                /** @description ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC) */
                created_before?: string;
                /** @description Page number, from 1 */
                page?: string;
                /** @description Items per page (default 20, at most 100) */
                page_size?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            /** @description Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            /** @description Not authenticated: `not_authenticated`, `token_not_valid`. */
            401: {
                headers: {
                    /** @description `Bearer realm="api"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `permission_denied`: the route is for admins. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `Invalid page.`: `not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description `database_unavailable` (with `Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait (2 for the database). */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
}
