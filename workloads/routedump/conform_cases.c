// SPDX-License-Identifier: GPL-2.0
/*
 * The cases of the strict-checking conformance suite: for every dump the
 * strict-checking series (Linux 4.20) changed, what a strict dump request
 * must look like, and the request itself, valid or malformed on purpose.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include <linux/fib_rules.h>
#include <linux/if_addr.h>
#include <linux/if_addrlabel.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/net_namespace.h>
#include <linux/netconf.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>

#include "conform.h"

/*
 * The strict-checking conformance suite. For every dump the strict-checking
 * series (Linux 4.20) changed, a table of what a strict dump request must
 * look like: the family header, each field that must be zero, and an
 * attribute the dump does not take. The expected extack messages are the
 * 6.1 sources' (net/core/rtnetlink.c, net/ipv4/devinet.c, fib_frontend.c,
 * ipmr.c, net/ipv6/addrconf.c, addrlabel.c, ip6_fib.c, net/core/neighbour.c,
 * fib_rules.c, net_namespace.c, net/bridge/br_mdb.c, net/mpls/af_mpls.c);
 * NL_SET_ERR_MSG_MOD prefixes the module's name ("ipv6: ", "bridge: ",
 * "mpls_router: ").
 */
#define MSG_LINK_VALUES "Invalid values in header for link dump request"
static const struct field link_fields[] = {
	{ "__ifi_pad", 1, 1, 1, MSG_LINK_VALUES },
	{ "ifi_type", 2, 2, 1, MSG_LINK_VALUES },
	{ "ifi_flags", 8, 4, IFF_UP, MSG_LINK_VALUES },
	{ "ifi_change", 12, 4, IFF_UP, MSG_LINK_VALUES },
	{ "ifi_index", 4, 4, 1, "Filter by device index not supported for link dumps" },
};
#define IFI_FIELDS(msg)                                                                                     \
	{ "__ifi_pad", 1, 1, 1, msg }, { "ifi_type", 2, 2, 1, msg }, { "ifi_flags", 8, 4, IFF_UP, msg },    \
	{ "ifi_change", 12, 4, IFF_UP, msg }, { "ifi_index", 4, 4, 1, msg }
static const struct field link6_fields[] = { IFI_FIELDS("ipv6: Invalid values in header for dump request") };
static const struct field linkmr_fields[] = { IFI_FIELDS("Invalid values in header for ipmr link dump request") };
static const struct field brlink_fields[] = { IFI_FIELDS("Invalid values in header for bridge link dump request") };
#define IFA_FIELDS(msg) { "ifa_prefixlen", 1, 1, 24, msg }, { "ifa_flags", 2, 1, 1, msg }, { "ifa_scope", 3, 1, 1, msg }
static const struct field addr4_fields[] = { IFA_FIELDS("ipv4: Invalid values in header for address dump request") };
static const struct field addr6_fields[] = { IFA_FIELDS("ipv6: Invalid values in header for address dump request") };
#define MSG_LBL "ipv6: Invalid values in header for address label dump request"
static const struct field addrlbl_fields[] = {
	{ "__ifal_reserved", 1, 1, 1, MSG_LBL }, { "ifal_prefixlen", 2, 1, 64, MSG_LBL },
	{ "ifal_flags", 3, 1, 1, MSG_LBL },	  { "ifal_index", 4, 4, 1, MSG_LBL },
	{ "ifal_seq", 8, 4, 1, MSG_LBL },
};
#define MSG_FIB "Invalid values in header for FIB dump request"
static const struct field route_fields[] = {
	{ "rtm_dst_len", 1, 1, 8, MSG_FIB },
	{ "rtm_src_len", 2, 1, 8, MSG_FIB },
	{ "rtm_tos", 3, 1, 4, MSG_FIB },
	{ "rtm_scope", 6, 1, RT_SCOPE_LINK, MSG_FIB },
	{ "rtm_flags", 8, 4, RTM_F_NOTIFY, "Invalid flags for FIB dump request" },
};
#define MSG_STATS "Invalid values in header for stats dump request"
static const struct field stats_fields[] = {
	{ "pad1", 1, 1, 1, MSG_STATS },
	{ "pad2", 2, 2, 1, MSG_STATS },
	{ "ifindex", 4, 4, 1, MSG_STATS },
	{ "filter_mask", 8, 4, 1u << 31, "Invalid stats requested through filter mask" },
};
#define MSG_NEIGH "Invalid values in header for neighbor dump request"
static const struct field neigh_fields[] = {
	{ "ndm_pad1", 1, 1, 1, MSG_NEIGH },
	{ "ndm_pad2", 2, 2, 1, MSG_NEIGH },
	{ "ndm_ifindex", 4, 4, 1, MSG_NEIGH },
	{ "ndm_state", 8, 2, NUD_PERMANENT, MSG_NEIGH },
	{ "ndm_flags", 10, 1, NTF_USE, "Invalid flags in header for neighbor dump request" },
	{ "ndm_type", 11, 1, RTN_UNICAST, MSG_NEIGH },
};
#define MSG_NTBL "Invalid values in header for neighbor table dump request"
static const struct field neightbl_fields[] = {
	{ "ndtm_pad1", 1, 1, 1, MSG_NTBL },
	{ "ndtm_pad2", 2, 2, 1, MSG_NTBL },
};
#define MSG_RULE "Invalid values in header for fib rule dump request"
static const struct field rule_fields[] = {
	{ "dst_len", 1, 1, 8, MSG_RULE }, { "src_len", 2, 1, 8, MSG_RULE }, { "tos", 3, 1, 4, MSG_RULE },
	{ "table", 4, 1, 100, MSG_RULE }, { "res1", 5, 1, 1, MSG_RULE },    { "res2", 6, 1, 1, MSG_RULE },
	{ "action", 7, 1, FR_ACT_TO_TBL, MSG_RULE }, { "flags", 8, 4, FIB_RULE_INVERT, MSG_RULE },
};
static const struct field mdb_fields[] = {
	{ "ifindex", 4, 4, 1, "bridge: Filtering by device index is not supported for mdb dump request" },
};
#define MSG_FDB "Invalid values in header for fdb dump request"
static const struct field fdb_fields[] = {
	{ "ndm_pad1", 1, 1, 1, MSG_FDB },
	{ "ndm_pad2", 2, 2, 1, MSG_FDB },
	{ "ndm_state", 8, 2, NUD_PERMANENT, MSG_FDB },
	{ "ndm_flags", 10, 1, NTF_SELF, MSG_FDB },
	{ "ndm_type", 11, 1, RTN_UNICAST, MSG_FDB },
};

static void stats_fix(uint8_t *hdr)
{
	uint32_t mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64);

	memcpy(hdr + offsetof(struct if_stats_msg, filter_mask), &mask, 4);
}

#define MSG_ROUTE_SHORT "Invalid header for FIB dump request"
#define MSG_ROUTE_ATTR "Unsupported attribute in dump request"
#define ROUTE_CASE(nm, fam)                                                                                    \
	{ nm, RTM_GETROUTE, fam, sizeof(struct rtmsg), route_fields, ARRAY_LEN(route_fields), MSG_ROUTE_SHORT, RTA_DST, \
	  4, "RTA_DST", MSG_ROUTE_ATTR, 0, NULL, NULL, 0, NULL, NULL, NULL }

const struct dcase dcases[] = {
	{ "RTM_GETLINK", RTM_GETLINK, AF_UNSPEC, sizeof(struct ifinfomsg), link_fields, ARRAY_LEN(link_fields),
	  "Invalid header for link dump", IFLA_MTU, 4, "IFLA_MTU", "Unsupported attribute in link dump request",
	  0, NULL, "as the rtgenmsg-sized request of iproute2 < 3.9 needs", 0, NULL, NULL, NULL },
	{ "RTM_GETLINK/inet6", RTM_GETLINK, AF_INET6, sizeof(struct ifinfomsg), link6_fields, ARRAY_LEN(link6_fields),
	  "ipv6: Invalid header for link dump request", IFLA_MTU, 4, "IFLA_MTU", "ipv6: Invalid data after header",
	  0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETLINK/ipmr", RTM_GETLINK, RTNL_FAMILY_IPMR, sizeof(struct ifinfomsg), linkmr_fields,
	  ARRAY_LEN(linkmr_fields), "ipv4: Invalid header for ipmr link dump", IFLA_MTU, 4, "IFLA_MTU",
	  "Invalid data after header in ipmr link dump", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETLINK/bridge", RTM_GETLINK, AF_BRIDGE, sizeof(struct ifinfomsg), brlink_fields,
	  ARRAY_LEN(brlink_fields), "Invalid header for bridge link dump", IFLA_MTU, 4, "IFLA_MTU",
	  "Unsupported attribute in bridge link dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETADDR/inet", RTM_GETADDR, AF_INET, sizeof(struct ifaddrmsg), addr4_fields, ARRAY_LEN(addr4_fields),
	  "ipv4: Invalid header for address dump request", IFA_LOCAL, 4, "IFA_LOCAL",
	  "ipv4: Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETADDR/inet6", RTM_GETADDR, AF_INET6, sizeof(struct ifaddrmsg), addr6_fields, ARRAY_LEN(addr6_fields),
	  "ipv6: Invalid header for address dump request", IFA_LOCAL, 16, "IFA_LOCAL",
	  "ipv6: Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETMULTICAST/inet6", RTM_GETMULTICAST, AF_INET6, sizeof(struct ifaddrmsg), addr6_fields,
	  ARRAY_LEN(addr6_fields), "ipv6: Invalid header for address dump request", IFA_LOCAL, 16, "IFA_LOCAL",
	  "ipv6: Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETANYCAST/inet6", RTM_GETANYCAST, AF_INET6, sizeof(struct ifaddrmsg), addr6_fields,
	  ARRAY_LEN(addr6_fields), "ipv6: Invalid header for address dump request", IFA_LOCAL, 16, "IFA_LOCAL",
	  "ipv6: Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETADDRLABEL/inet6", RTM_GETADDRLABEL, AF_INET6, sizeof(struct ifaddrlblmsg), addrlbl_fields,
	  ARRAY_LEN(addrlbl_fields), "ipv6: Invalid header for address label dump request", IFAL_LABEL, 4, "IFAL_LABEL",
	  "ipv6: Invalid data after header for address label dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	ROUTE_CASE("RTM_GETROUTE/inet", AF_INET),
	ROUTE_CASE("RTM_GETROUTE/inet6", AF_INET6),
	ROUTE_CASE("RTM_GETROUTE/mpls", AF_MPLS),
	ROUTE_CASE("RTM_GETROUTE/ipmr", RTNL_FAMILY_IPMR),
	ROUTE_CASE("RTM_GETROUTE/ip6mr", RTNL_FAMILY_IP6MR),
	{ "RTM_GETSTATS", RTM_GETSTATS, AF_UNSPEC, sizeof(struct if_stats_msg), stats_fields, ARRAY_LEN(stats_fields),
	  "Invalid header for stats dump", IFLA_STATS_SET_OFFLOAD_XSTATS_L3_STATS, 1,
	  "IFLA_STATS_SET_OFFLOAD_XSTATS_L3_STATS", "Unsupported attribute",
	  -EINVAL, "Invalid header for stats dump",
	  "not tolerated: rtnl_valid_stats_req() checks the length whatever the socket says",
	  -EINVAL, "Unsupported attribute",
	  "not tolerated: rtnl_stats_get_parse() parses attributes strictly whatever the socket says", stats_fix },
	{ "RTM_GETNEIGH/inet", RTM_GETNEIGH, AF_INET, sizeof(struct ndmsg), neigh_fields, ARRAY_LEN(neigh_fields),
	  "Invalid header for neighbor dump request", NDA_DST, 4, "NDA_DST",
	  "Unsupported attribute in neighbor dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNEIGHTBL", RTM_GETNEIGHTBL, AF_UNSPEC, sizeof(struct ndtmsg), neightbl_fields,
	  ARRAY_LEN(neightbl_fields), "Invalid header for neighbor table dump request", NDTA_THRESH1, 4, "NDTA_THRESH1",
	  "Invalid data after header in neighbor table dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNSID", RTM_GETNSID, AF_UNSPEC, sizeof(struct rtgenmsg), NULL, 0, NULL, NETNSA_PID, 4,
	  "NETNSA_PID", "Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETRULE/inet", RTM_GETRULE, AF_INET, sizeof(struct fib_rule_hdr), rule_fields, ARRAY_LEN(rule_fields),
	  "Invalid header for fib rule dump request", FRA_PRIORITY, 4, "FRA_PRIORITY",
	  "Invalid data after header in fib rule dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNETCONF/inet", RTM_GETNETCONF, AF_INET, sizeof(struct netconfmsg), NULL, 0, NULL,
	  NETCONFA_IFINDEX, 4, "NETCONFA_IFINDEX", "ipv4: Invalid data after header in netconf dump request", 0,
	  NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNETCONF/inet6", RTM_GETNETCONF, AF_INET6, sizeof(struct netconfmsg), NULL, 0, NULL,
	  NETCONFA_IFINDEX, 4, "NETCONFA_IFINDEX", "ipv6: Invalid data after header in netconf dump request", 0,
	  NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNETCONF/mpls", RTM_GETNETCONF, AF_MPLS, sizeof(struct netconfmsg), NULL, 0, NULL,
	  NETCONFA_IFINDEX, 4, "NETCONFA_IFINDEX", "mpls_router: Invalid data after header in netconf dump request",
	  0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETMDB/bridge", RTM_GETMDB, AF_BRIDGE, sizeof(struct br_port_msg), mdb_fields, ARRAY_LEN(mdb_fields),
	  "bridge: Invalid header for mdb dump request", MDBA_MDB, 4, "MDBA_MDB",
	  "Invalid data after header in mdb dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNEIGH/bridge (fdb)", RTM_GETNEIGH, AF_BRIDGE, sizeof(struct ndmsg), fdb_fields, ARRAY_LEN(fdb_fields),
	  "Invalid header for fdb dump request", NDA_DST, 4, "NDA_DST", "Unsupported attribute in fdb dump request",
	  -EINVAL, "Invalid header length",
	  "not tolerated: the legacy fdb dump takes an ndmsg or an ifinfomsg, nothing shorter", 0, NULL, NULL, NULL },
};
const int ndcases = ARRAY_LEN(dcases);


/* A dump request of case @d, valid, or malformed by @v (field @k) */
struct nlmsghdr *case_request(struct nl_sock *s, void *buf, const struct dcase *d, enum variant v, int k)
{
	struct nlmsghdr *nlh = nl_msg(s, buf, d->type, NLM_F_DUMP);
	uint8_t *hdr = mnl_nlmsg_put_extra_header(nlh, d->hdrlen);

	hdr[0] = d->family;
	if (d->fix)
		d->fix(hdr);
	switch (v) {
	case V_OK:
		break;
	case V_SHORT:
		/* the rtgenmsg of old requests: the family byte only */
		nlh->nlmsg_len = NLMSG_HDRLEN + 1;
		break;
	case V_FIELD: {
		const struct field *f = &d->fields[k];

		if (f->size == 1)
			hdr[f->off] = (uint8_t)f->val;
		else if (f->size == 2)
			memcpy(hdr + f->off, &(uint16_t){ (uint16_t)f->val }, 2);
		else
			memcpy(hdr + f->off, &f->val, 4);
		break;
	}
	case V_ATTR: {
		uint8_t payload[16] = { 0 };

		if (d->attr_len == 4)
			memcpy(payload, &(uint32_t){ 1 }, 4);
		else
			payload[0] = 1;
		mnl_attr_put(nlh, d->attr, d->attr_len, payload);
		break;
	}
	}
	return nlh;
}

