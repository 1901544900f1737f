#!/usr/bin/env python3
"""Writes synthetic-share-system-fields.bplist: an NSKeyedArchiver archive with the structure of a real CKShare's
system fields as Apple Notes stores them (ZSERVERSHAREDATA: keys in $top, participants as CKShareParticipant objects
holding CKUserIdentity, NSPersonNameComponents and CKUserIdentityLookupInfo), with made-up values. Written by Python's
plistlib, independently of Reconcile's own archive writer, so reading it tests the reader against Apple's layout."""
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

zone_cls = cls('CKRecordZoneID', ['CKRecordZoneID', 'NSObject'])
rid_cls = cls('CKRecordID', ['CKRecordID', 'NSObject'])
def zone(name, owner):
    return add({'ZoneName': add(name), 'ownerName': add(owner), 'databaseScopeKey': 2, 'anonymousCKUserID': UID(0),
                '$class': zone_cls})
def rid(name, z):
    return add({'RecordName': add(name), 'ZoneID': z, '$class': rid_cls})
date_cls = cls('NSDate', ['NSDate', 'NSObject'])
def date(t):
    return add({'NS.time': t, '$class': date_cls})

default_zone = zone('_defaultZone', '__defaultOwner__')
def participant(pid, user, given, family, email, ptype, permission, status, current):
    names = add({'$class': cls('_NSPersonNameComponentsData', ['_NSPersonNameComponentsData', 'NSObject']),
                 'NS.givenName': add(given), 'NS.familyName': add(family), 'NS.middleName': UID(0),
                 'NS.nickname': UID(0), 'NS.namePrefix': UID(0), 'NS.nameSuffix': UID(0),
                 'NS.phoneticRepresentation': UID(0)})
    components = add({'$class': cls('NSPersonNameComponents', ['NSPersonNameComponents', 'NSObject']),
                      'NS.nameComponentsPrivate': names})
    lookup = add({'EmailAddress': add(email), 'PhoneNumber': UID(0), 'RecordID': UID(0),
                  'EncryptedPersonalInfo': add(b''), 'ReportsMissing': False,
                  '$class': cls('CKUserIdentityLookupInfo', ['CKUserIdentityLookupInfo', 'NSObject'])})
    identity = add({'IsCached': False, 'HasICloudAccount': True, 'ProtectionData': add(b''), 'NameComponents': components,
                    'EncryptedPersonalInfo': add(b''), 'PublicKeyVersion': 2, 'UserRecordID': rid(user, default_zone),
                    'OONProtectionData': UID(0), 'LookupInfo': lookup,
                    '$class': cls('CKUserIdentity', ['CKUserIdentity', 'NSObject'])})
    return add({'Permission': permission, 'OriginalAcceptanceStatus': 1, 'OriginalPermission': 2,
                'wantsNewInvitationToken': False, 'mutableInvitationTokenStatus': 1, 'ParticipantID': add(pid),
                'isAnonymousInvitedParticipant': False, 'InviterID': UID(0), 'CreatedInProcess': False, 'Type': ptype,
                'AcceptanceStatus': status, 'ProtectionInfoPublicKey': UID(0), 'IsOrgAdminUser': False,
                'UserIdentity': identity, 'InvitationToken': UID(0), 'OriginalParticipantType': 3,
                'AcceptedInProcess': False, 'ProtectionInfo': add(b''), 'IsCurrentUser': current,
                'EncryptedPersonalInfo': add(b''),
                '$class': cls('CKShareParticipant', ['CKShareParticipant', 'NSObject'])})

notes = zone('Notes', '__defaultOwner__')
owner = participant('00000000-0000-4000-8000-000000000001', '__defaultOwner__', 'Ada', 'Example',
                    'ada@example.invalid', 1, 3, 2, True)
guest = participant('00000000-0000-4000-8000-000000000002', '_0123456789abcdef0123456789abcdef', 'Bo', 'Sample',
                    'bo@example.invalid', 3, 2, 1, False)
array_cls = cls('NSMutableArray', ['NSMutableArray', 'NSArray', 'NSObject'])
top = {
    'RecordType': add('cloudkit.share'),
    'RecordID': rid('Share-00000000-0000-4000-8000-00000000abcd', notes),
    'RecordCtime': date(623029930.778), 'RecordMtime': date(719491021.961),
    'CreatorUserRecordID': rid('__defaultOwner__', default_zone),
    'LastModifiedUserRecordID': rid('__defaultOwner__', default_zone),
    'ModifiedByDevice': add('Example iPhone'), 'ETag': add('1av'), 'RoutingKey': add('0kL'),
    'DisplayedHostname': add('www.icloud.com'), 'KnownToServer': True, 'WasCached': False,
    'ParentReference': UID(0), 'ShareReference': UID(0), 'URL': UID(0), 'Permission': 1, 'PublicPermission': 1,
    'Participants': add({'NS.objects': [owner, guest], '$class': array_cls}),
    'LastFetchedParticipants': add({'NS.objects': [owner, guest], '$class': array_cls}),
    'ContainerID': add({'Environment': 1, 'ContainerIdentifier': add('com.example.notes'),
                        '$class': cls('CKContainerID', ['CKContainerID', 'NSObject'])}),
    'AllowsAnonymousAccess': False, 'ParticipantVisibility': 0, 'ParticipantSelfRemovalBehavior': 0,
    'HasUpdatedParentReference': False, 'HasUpdatedShareReference': False, 'Expired': False,
}
archive = {'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': top, '$objects': objects}
sys.stdout.buffer.write(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False))
