package harness

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
)

// With EvaluateOptions.Resolve, a bot URL's host name is a pool: every
// address it resolves to is one bot (a Kubernetes headless Service in
// front of a Deployment, a DNS name with one A record per bot). A
// scenario is prepared on one connection and run on the next (NeMo's
// bridge), so both must reach the same bot: each run resolves the name
// and dials one address, by IP, for both. Dialling the name would let
// each connection land on any bot.

// lookupHost resolves a pool's host name; tests replace it.
var lookupHost = net.DefaultResolver.LookupHost

// checkResolvable refuses, before anything runs, a pool URL that cannot
// be pinned to an address: not ws:// (a wss:// bot's certificate names
// its host, not its address) or unparsable.
func checkResolvable(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("harness: Evaluate: Resolve: bot URL %q: %w", raw, err)
	}
	if u.Scheme != "ws" || u.Hostname() == "" {
		return fmt.Errorf("harness: Evaluate: Resolve needs ws://host:port URLs, not %q (a run dials an address of the host for the host; a wss:// certificate names the host)", raw)
	}
	return nil
}

// pinURL returns raw with its host name replaced by one of its
// addresses: the i-th (mod their count) of the sorted list, so that
// shards given the same pool take different bots. An IP literal is
// returned unchanged.
func pinURL(ctx context.Context, raw string, i int) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	host := u.Hostname()
	if net.ParseIP(host) != nil {
		return raw, nil
	}
	addrs, err := lookupHost(ctx, host)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no address")
	}
	if err != nil {
		return "", fmt.Errorf("resolving the bot pool %s: %w", host, err)
	}
	slices.Sort(addrs)
	addrs = slices.Compact(addrs)
	a := addrs[i%len(addrs)]
	if port := u.Port(); port != "" {
		u.Host = net.JoinHostPort(a, port)
	} else if net.ParseIP(a).To4() == nil {
		u.Host = "[" + a + "]"
	} else {
		u.Host = a
	}
	return u.String(), nil
}

// pinPair is pair p with both URLs pinned to the i-th address of their
// pools.
func pinPair(ctx context.Context, p BotPair, i int) (BotPair, error) {
	var err error
	if p.AgentURL, err = pinURL(ctx, p.AgentURL, i); err != nil {
		return p, fmt.Errorf("agent bot: %w", err)
	}
	if p.UserURL, err = pinURL(ctx, p.UserURL, i); err != nil {
		return p, fmt.Errorf("user bot: %w", err)
	}
	return p, nil
}
