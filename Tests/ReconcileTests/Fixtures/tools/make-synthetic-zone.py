#!/usr/bin/env python3
"""Writes synthetic-record-zone-with-token.bplist: an NSKeyedArchiver archive of one CKRecordZone laid out as the real
canopy-record-zone-array.bplist lays its zones out (every key Apple archives), but with the object-valued keys that
fixture leaves $null filled in with made-up values: a CKServerChangeToken, an expiration NSDate, a PCS key ID (NSData)
and an NSArray of key IDs to remove. Written by Python's plistlib, independently of Reconcile's own archive writer."""
import plistlib, sys
from plistlib import UID

objects = ['$null']
def add(o):
    objects.append(o)
    return UID(len(objects) - 1)
classes = {}
def cls(name, chain):
    if name not in classes:
        classes[name] = add({'$classname': name, '$classes': chain})
    return classes[name]

zone_id = add({'ZoneName': add('Notes'), 'ownerName': add('__defaultOwner__'), 'databaseScopeKey': 2,
               'anonymousCKUserID': UID(0), '$class': cls('CKRecordZoneID', ['CKRecordZoneID', 'NSObject'])})
token = add({'ChangeTokenData': add(bytes.fromhex('0100000186112069ab')),
             '$class': cls('CKServerChangeToken', ['CKServerChangeToken', 'NSObject'])})
date = add({'NS.time': 787_000_000.5, '$class': cls('NSDate', ['NSDate', 'NSObject'])})
key_id = add(bytes.fromhex('c0ffee0001'))
removed = add({'NS.objects': [add(bytes.fromhex('dead0002'))], '$class': cls('NSArray', ['NSArray', 'NSObject'])})
zone = add({'ZoneID': zone_id, 'Capabilities': 7, 'ShareReference': UID(0), 'CurrentServerChangeToken': token,
            'ClientChangeToken': UID(0), 'ExpirationDate': date, 'PCSKeyID': key_id, 'ZoneishKeyID': UID(0),
            'InvitedKeysToRemove': removed, 'PCSModificationDate': UID(0), 'PreviousProtectionEtag': UID(0),
            'UpdatedExpiration': UID(0), 'HasUpdatedExpiration': False, 'Expired': False, 'DeviceCount': 2,
            'AssetQuotaUsage': 4096, 'MetadataQuotaUsage': 512,
            '$class': cls('CKRecordZone', ['CKRecordZone', 'NSObject'])})
archive = {'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': zone}, '$objects': objects}
out = sys.argv[1] if len(sys.argv) > 1 else 'synthetic-record-zone-with-token.bplist'
with open(out, 'wb') as f:
    plistlib.dump(archive, f, fmt=plistlib.FMT_BINARY, sort_keys=True)
