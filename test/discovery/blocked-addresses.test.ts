import { describe, expect, it } from "vitest";
import { blockedAddressCategory, isBlockedAddress } from "../../src/http/blocked-addresses.js";

describe("blockedAddressCategory", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fec0::1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "reserved"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.10", "reserved"],
    ["198.18.0.1", "reserved"],
    ["::", "reserved"],
    ["2001:db8::1", "reserved"],
    ["100::1", "reserved"],
    ["2001::1", "reserved"],
  ])("%s is %s", (address, category) => {
    expect(blockedAddressCategory(address)).toBe(category);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:7f00:1::", "loopback"],
    ["2002:c0a8:101::1", "private"],
    ["::127.0.0.1", "reserved"],
  ])("IPv6 embedding %s is blocked as %s", (address, category) => {
    expect(blockedAddressCategory(address)).toBe(category);
  });

  it.each([
    "8.8.8.8",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is public", (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it("refuses anything that is not an IP literal", () => {
    expect(blockedAddressCategory("localhost")).toBe("reserved");
    expect(blockedAddressCategory("")).toBe("reserved");
  });
});
