import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasManageServer, mayPostHere, publicPostVerdict, serverScopeRefusal } from '../../src/settings/access.js';
import { DEFAULT_SETTINGS } from '../../src/settings/settings-record.js';

const MANAGE_SERVER = 1n << 5n;
const ADMINISTRATOR = 1n << 3n;
const SEND_MESSAGES = 1n << 11n;
const GUILD = '200000000000000001';
const STATS_ROLE = '300000000000000001';
const SHARE_ROLE = '300000000000000002';
const SHARE_CHANNEL = '400000000000000001';
const OTHER_CHANNEL = '400000000000000002';

const member = (roles: string[], permissions = SEND_MESSAGES, channelId = SHARE_CHANNEL) => ({
	guildId: GUILD,
	channelId,
	memberPermissions: permissions,
	memberRoles: roles,
});
const ruled = {
	...DEFAULT_SETTINGS,
	serverStatsRoleId: STATS_ROLE,
	shareRoleId: SHARE_ROLE,
	shareChannelId: SHARE_CHANNEL,
};

describe('access rules', () => {
	test('defaults keep today: everyone, any channel', () => {
		assert.equal(serverScopeRefusal(member([]), DEFAULT_SETTINGS), null);
		assert.deepEqual(publicPostVerdict(member([], SEND_MESSAGES, OTHER_CHANNEL), DEFAULT_SETTINGS), {
			kind: 'allowed',
		});
	});

	test('scope:server needs the server-stats role or Manage Server; the refusal names the role', () => {
		assert.deepEqual(serverScopeRefusal(member([SHARE_ROLE]), ruled), {
			key: 'refusal.serverStatsRole',
			vars: { roleId: STATS_ROLE },
		});
		assert.equal(serverScopeRefusal(member([STATS_ROLE]), ruled), null);
		assert.equal(serverScopeRefusal(member([], MANAGE_SERVER), ruled), null);
		assert.equal(serverScopeRefusal(member([], ADMINISTRATOR), ruled), null, 'Administrator implies Manage Server');
	});

	test('a public post needs the share role or Manage Server, then the share channel', () => {
		assert.deepEqual(publicPostVerdict(member([STATS_ROLE]), ruled), {
			kind: 'role',
			refusal: { key: 'refusal.shareRole', vars: { roleId: SHARE_ROLE } },
		});
		assert.deepEqual(publicPostVerdict(member([SHARE_ROLE]), ruled), { kind: 'allowed' });
		assert.deepEqual(publicPostVerdict(member([SHARE_ROLE], SEND_MESSAGES, OTHER_CHANNEL), ruled), {
			kind: 'channel',
			channelId: SHARE_CHANNEL,
		});
		assert.deepEqual(
			publicPostVerdict(member([], MANAGE_SERVER, OTHER_CHANNEL), ruled),
			{ kind: 'channel', channelId: SHARE_CHANNEL },
			'Manage Server passes the role, not the channel',
		);
		assert.equal(mayPostHere(member([], MANAGE_SERVER), ruled), true);
		assert.equal(mayPostHere(member([]), ruled), false);
	});

	test('a member whose roles Discord did not send holds none', () => {
		const unknown = { guildId: GUILD, channelId: SHARE_CHANNEL, memberPermissions: null, memberRoles: null };
		assert.equal(hasManageServer(unknown), false);
		assert.notEqual(serverScopeRefusal(unknown, ruled), null);
		assert.equal(publicPostVerdict(unknown, ruled).kind, 'role');
	});

	test('outside a server no server rule applies', () => {
		const dm = { guildId: null, channelId: OTHER_CHANNEL, memberPermissions: null, memberRoles: null };
		assert.equal(serverScopeRefusal(dm, ruled), null);
		assert.deepEqual(publicPostVerdict(dm, ruled), { kind: 'allowed' });
	});
});
