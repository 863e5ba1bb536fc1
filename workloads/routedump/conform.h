/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the conformance suite share (conform.c, the verb and
 * the strict checks; conform_cases.c, the table of dump requests;
 * conform_routes.c, the route filters; fuzz.c, the fuzz).
 */
#ifndef ROUTEDUMP_CONFORM_H
#define ROUTEDUMP_CONFORM_H

#include "routedump.h"

/* A field of a dump request's header that must be zero with strict checking */
struct field {
	const char *name;
	uint8_t off, size;
	uint32_t val;
	const char *msg;
};

/* One dump type: its header, what strict checking refuses, and what legacy tolerates */
struct dcase {
	const char *name;
	uint16_t type;
	uint8_t family;
	uint8_t hdrlen;
	const struct field *fields;
	int nfields;
	const char *short_msg;		/* NULL: the header is one byte, nothing shorter reaches the dump */
	uint16_t attr;
	uint8_t attr_len;
	const char *attr_name;
	const char *attr_msg;
	/* strict off: what the legacy path does with the malformed requests */
	int legacy_short_err;
	const char *legacy_short_msg;
	const char *legacy_short_why;
	int legacy_attr_err;
	const char *legacy_attr_msg;
	const char *legacy_attr_why;
	void (*fix)(uint8_t *hdr);	/* make the header valid beyond the family */
};

extern const struct dcase dcases[];
extern const int ndcases;

enum variant { V_OK, V_SHORT, V_FIELD, V_ATTR };

/* A dump request of case @d, valid, or malformed by @v (field @k) */
struct nlmsghdr *case_request(struct nl_sock *s, void *buf, const struct dcase *d, enum variant v, int k);

/* Send a request and read its whole answer; reopens the socket when the answer was not clean */
int ask(struct nl_sock *s, const struct nlmsghdr *nlh, size_t len, mnl_cb_t cb, void *data,
	struct nl_reply *r);
/*
 * One request against its expectation: @exp_err 0 = a dump that ends
 * cleanly, else that error with the extack message @exp_msg (NULL: any).
 * The answer, extack included, is printed in the TAP line.
 */
bool expect(struct nl_sock *s, const struct nlmsghdr *nlh, int exp_err, const char *exp_msg,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* "ok" for 0, else the errno's name */
const char *err_or_ok(int err);

void suite_route_filters(struct nl_sock *strict, struct nl_sock *legacy, const int *ifx);
void suite_fuzz(uint64_t count, uint64_t seed, const char *out);

#endif
